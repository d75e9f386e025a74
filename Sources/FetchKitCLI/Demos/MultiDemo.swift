import FetchKit
import Foundation

/// Seed 001 (FPMultiFetchedResultsController): several named requests, animated transitions between them.
enum MultiDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let ordering = [SortDescriptor<Todo>(\.ordering)]
        let todos = try MultiResultsController(
            store: store,
            requests: [
                "all": try FetchRequest(sortBy: ordering),
                "open": try FetchRequest(predicate: #Predicate { !$0.done }, sortBy: ordering),
                "done": try FetchRequest(predicate: #Predicate { $0.done }, sortBy: ordering),
                "byCategory": try FetchRequest(
                    sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.priority, order: .reverse)],
                    sectionBy: \.category?.name)
            ], initial: "open")
        let printer = BatchPrinter<MultiResultsController<Todo>>()
        todos.delegate = printer
        try await todos.performFetch()
        print("FetchKit demo multi — one MultiResultsController, four named requests\n")
        print("current: \(todos.currentName)")
        print(DemoRenderer.list(todos.snapshot))
        for name in ["all", "done", "byCategory", "open"] {
            DemoStore.step("transition(to: \"\(name)\") — one batch, rows matched by key, sections by name")
            try await todos.transition(to: name)
            print(printer.takeReport())
            print(DemoRenderer.list(todos.snapshot))
        }
        DemoStore.step("transition(to: \"archived\") — an unknown name throws and changes nothing")
        do {
            try await todos.transition(to: "archived")
        } catch {
            print("   error: \(error)")
            print(
                "   still showing '\(todos.currentName)', \(todos.fetchedObjects.count) rows; delegate: "
                    + "\(printer.takeReport())\n"
            )
        }
        DemoStore.step("a write while 'open' is current: live changes keep flowing")
        try await store.write { tx in
            try tx.insert(Todo(title: "Renew passport", ordering: 0.25, category: try tx.category(named: "Errands")))
        }
        await todos.sync()
        print(printer.takeReport())
        print(DemoRenderer.list(todos.snapshot))
        await store.close()
    }
}
