import FetchKit

/// Seed 002 (manually reordering rows across sections): moveObject writes the order and the section, and
/// the delegate hears only what the UI does not already show.
enum ReorderDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let controller = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "categoryID != nil"),
                sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
                sectionNameKeyPath: "category.name"))
        let printer = BatchPrinter<ResultsController<Row>>()
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
        let rows = try await store.fetch(
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "categoryID == 3"),
                sortDescriptors: [.ascending("ordering")]))
        for row in rows {
            print(
                "   \(row["title", as: String.self] ?? "?"): ordering \(row["ordering"] ?? .null), category "
                    + "\(row["categoryID"] ?? .null)"
            )
        }
        await store.close()
    }
}
