import FetchKit
import FetchKitTesting

/// Seed 001 (FPMultiFetchedResultsController): several named requests, animated transitions between them.
enum MultiDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let ordering: [FetchSortDescriptor] = [.ascending("ordering")]
        let tasks = try MultiResultsController(store: store, requests: [
            "all": FetchRequest(entity: "Task", sortDescriptors: ordering),
            "open": FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "done == NO"), sortDescriptors: ordering),
            "done": FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "done == YES"), sortDescriptors: ordering),
            "byCategory": FetchRequest(entity: "Task", sortDescriptors: [.ascending("category.name"), .descending("priority")],
                                       sectionNameKeyPath: "category.name"),
        ], initial: "open")
        let printer = BatchPrinter<MultiResultsController<Row>>()
        tasks.delegate = printer
        try await tasks.performFetch()
        print("FetchKit demo multi — one MultiResultsController, four named requests (seed 001)\n")
        print("current: \(tasks.currentName)")
        print(DemoRenderer.list(tasks.snapshot))
        for name in ["all", "done", "byCategory", "open"] {
            DemoStore.step("transition(to: \"\(name)\") — one batch, rows matched by key, sections by name")
            try await tasks.transition(to: name)
            print(printer.takeReport())
            print(DemoRenderer.list(tasks.snapshot))
        }
        DemoStore.step("transition(to: \"archived\") — an unknown name throws and changes nothing")
        do {
            try await tasks.transition(to: "archived")
        } catch {
            print("   error: \(error)")
            print("   still showing '\(tasks.currentName)', \(tasks.fetchedObjects.count) rows; delegate: \(printer.takeReport())\n")
        }
        DemoStore.step("a write while 'open' is current: live changes keep flowing")
        try await store.write { tx in try tx.insert(Fixtures.TaskRecord(title: "Renew passport", ordering: 0.25, categoryID: 3)) }
        await tasks.sync()
        print(printer.takeReport())
        print(DemoRenderer.list(tasks.snapshot))
        await store.close()
    }
}
