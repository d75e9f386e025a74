import FetchKit
import Foundation

/// Seed 002 (manually reordering rows across sections): moveObject writes the order and the section, and
/// the delegate hears only what the UI does not already show.
enum ReorderDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let controller = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(
                predicate: #Predicate { $0.category != nil },
                sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.ordering)], sectionBy: \.category?.name))
        let printer = BatchPrinter<ResultsController<Todo>>()
        controller.delegate = printer
        try await controller.performFetch()
        print(
            "FetchKit demo reorder — the user drags rows; sections keyed by category.name, order by ordering\n"
        )
        print(DemoRenderer.list(controller.snapshot))

        DemoStore.step(
            "drag [1, 0] 'Fix sink' to [0, 1] (Home → Errands): the UI already shows it; Errands' order values are "
                + "renumbered (one was NULL), so those rows are updated")
        try await controller.moveObject(from: RowPath(section: 1, row: 0), to: RowPath(section: 0, row: 1))
        await controller.sync()
        print(printer.takeReport())
        print(DemoRenderer.list(controller.snapshot))

        DemoStore.step("drag [1, 0] 'Plan trip', Home's last row, to [0, 0]: only the emptied section is deleted")
        try await controller.moveObject(from: RowPath(section: 1, row: 0), to: RowPath(section: 0, row: 0))
        await controller.sync()
        print(printer.takeReport())
        print(DemoRenderer.list(controller.snapshot))

        DemoStore.step("what was written (one transaction per move: ordering and category_id)")
        let errands = try await store.fetch(
            FetchRequest<Todo>(
                predicate: #Predicate { $0.category?.name == "Errands" }, sortBy: [SortDescriptor(\.ordering)]
            )
            .prefetching(\.category))
        for todo in errands {
            let category = todo.category?.id.map { "\($0)" } ?? "NULL"
            print("   \(todo.title): ordering \(todo.ordering.map { "\($0)" } ?? "NULL"), category \(category)")
        }
        await store.close()
    }
}
