import ArgumentParser
import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import Foundation
import Synchronization

/// `fetchkit demo`: a live, sectioned results controller over an embedded SQLite file, and the exact
/// batch it reports after each of a scripted series of writes.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Watch live results react to writes (embedded SQLite); name a scenario to see it solved.",
        discussion: """
            Without a name: creates a SQLite file in a temporary folder with a few todos in three categories, \
            opens a ResultsController sectioned by category, then inserts, completes, reorders across \
            sections, deletes the last row of a section, bulk-updates, and finally writes through a second \
            connection. After each write it prints the batch the controller's delegate received and the list.

            The other scenarios: multi (several named requests, animated transitions), composite (one list \
            from several controllers, capped), reorder (user moves across sections), batches (staged \
            collection-view batches and a fetchLimit under churn), wire (changesets sent to a remote client).
            """
    )

    @Argument(help: "The scenario: todos (default), multi, composite, reorder, batches or wire.")
    var name: DemoName = .todos

    @Option(help: "Database file (default: a new file in a temporary folder, deleted afterwards).")
    var path: String?

    func run() async throws {
        switch name {
        case .todos: try await runTodos()
        case .multi: try await MultiDemo.run()
        case .composite: try await CompositeDemo.run()
        case .reorder: try await ReorderDemo.run()
        case .batches: try await BatchesDemo.run()
        case .wire: try await WireDemo.run()
        }
    }

    /// The default demo: one sectioned controller and a scripted series of writes.
    private func runTodos() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-demo-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = path ?? directory.appendingPathComponent("demo.sqlite").path

        var options = SQLiteStore.Options()
        options.dataVersionPollInterval = .milliseconds(20)
        let schema = try Schema([Category.entity, Todo.entity])
        let store = try await SQLiteStore.open(path: file, schema: schema, options: options)
        try await store.write { tx in
            guard try tx.fetch(FetchRequest<Category>(fetchLimit: 1)).isEmpty else { return }
            try Fixtures.insertSampleData(tx)
        }
        let request = try FetchRequest<Todo>(
            predicate: #Predicate { $0.category != nil },
            sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.ordering)], sectionBy: \.category?.name)
        let controller = ResultsController(store: store, request: request)
        let printer = BatchPrinter<ResultsController<Todo>>()
        controller.delegate = printer
        try await controller.performFetch()

        print("FetchKit demo — a live ResultsController over embedded SQLite at \(file)")
        print("request: Todo where \(request.predicate), sectioned by category.name, ordered by ordering\n")
        print(DemoRenderer.list(controller.snapshot))

        let steps: [(String, @Sendable (any WriteTransaction) throws -> Void)] = [
            (
                "insert 'Water plants' into Home",
                { tx in
                    try tx.insert(
                        Todo(title: "Water plants", priority: 2, ordering: 5, category: try tx.category(named: "Home")))
                }
            ),
            (
                "complete 'Write report' (payload only: an update in place)",
                { tx in
                    var todo = try tx.todo(titled: "Write report")
                    todo.done = true
                    try tx.update(todo)
                }
            ),
            (
                "drag 'Café order' from Errands into Work, between two rows (a cross-section move)",
                { tx in
                    var todo = try tx.todo(titled: "Café order")
                    todo.category = try tx.category(named: "Work")
                    todo.ordering = 1.5
                    try tx.update(todo)
                }
            ),
            (
                "delete 'Buy milk', the last row of Errands (its section goes in the same batch)",
                { tx in try tx.delete(try tx.todo(titled: "Buy milk")) }
            ),
            (
                "bulk update: every Work todo gets priority 9 and is done (one statement, many rows)",
                { tx in
                    let inWork = try FetchPredicate(#Predicate<Todo> { $0.category?.name == "Work" })
                    try tx.update("Todo", where: inWork, set: ["priority": 9, "done": true])
                }
            )
        ]
        for (index, step) in steps.enumerated() {
            print("── \(index + 1). \(step.0)")
            try await store.write(step.1)
            await controller.sync()
            print(printer.takeReport())
            print(DemoRenderer.list(controller.snapshot))
        }

        print("── \(steps.count + 1). an outside write: a second connection inserts 'Fix bike' into Home")
        let outside = try await SQLiteStore.open(
            path: file, schema: schema, options: SQLiteStore.Options(readerCount: 0, schemaPolicy: .validateOnly))
        try await outside.write { tx in
            try tx.insert(Todo(title: "Fix bike", priority: 1, ordering: 0, category: try tx.category(named: "Home")))
        }
        await outside.close()
        let deadline = ContinuousClock.now + .seconds(5)
        while !printer.hasReport, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        print("(seen by polling PRAGMA data_version, then a refetch and a diff)")
        print(printer.takeReport())
        print(DemoRenderer.list(controller.snapshot))
        await store.close()
    }
}
