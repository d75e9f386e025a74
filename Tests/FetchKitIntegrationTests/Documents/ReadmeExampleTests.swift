import FetchKit
import FetchKitMacros
import FetchKitSQLite
import Foundation
import Synchronization
import Testing

/// The README's example, compiled and run, so the first code a newcomer reads keeps working.
@Suite("README example")
struct ReadmeExampleTests {
    struct Todo: Record {
        static let entity = Entity(
            "Todo", table: "todo", primaryKey: .integer("id"),
            attributes: [
                Attribute("title", .text),
                Attribute("priority", .integer, default: 0),
                Attribute("done", .bool, default: false)
            ])
        var id: Int64?
        var title: String
        var priority = 0
        var done = false
    }

    @Test func quickStartExample() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todos.sqlite").path

        let store = try await SQLiteStore.open(path: path, schema: try Schema([Todo.entity]))
        try await store.write { tx in
            try tx.insert(Todo(title: "Write the README", priority: 2))
            try tx.insert(Todo(title: "Ship it", priority: 3))
            try tx.insert(Todo(title: "rest", priority: 1))
        }
        let urgent = FetchRequest(
            Todo.self,
            predicate: try FetchPredicate(format: "done == NO AND priority >= %d", 2),
            sortDescriptors: [.descending("priority"), .ascending("title", caseInsensitive: true)])
        let titles = try await store.fetch(urgent, as: Todo.self).map(\.title)
        #expect(titles == ["Ship it", "Write the README"])

        // The same predicate, the two other ways in.
        let viaMacro = try FetchPredicate(#Predicate<Todo> { !$0.done && $0.priority >= 2 })
        let viaBuilder: FetchPredicate = .key("done") == false && .key("priority") >= 2
        for predicate in [viaMacro, viaBuilder] {
            var request = urgent
            request.predicate = predicate
            #expect(try await store.fetch(request, as: Todo.self).map(\.title) == titles)
        }
        await store.close()
    }

    /// The README's record, declared once (named as the README's `Todo`, which this suite already declares).
    @Entity("Todo", table: "todo")
    struct Item {
        @PrimaryKey var id: Int64?
        var title: String
        var done = false
        var position: Double
    }

    /// The README's "Live results in a few lines": an `updates()` reader hears each committed transaction as
    /// one batch.
    @Test func liveExample() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-live-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        typealias Todo = Item
        let printed = Mutex<[String]>([])

        let store = try await SQLiteStore.open(path: path, schema: try Schema([Todo.entity]))
        let controller = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(predicate: #Predicate { !$0.done }, sortBy: [SortDescriptor(\.position)]))
        try await controller.performFetch()
        let updates = controller.updates()
        let reader = Task {
            for try await update in updates {
                guard let changeset = update.changeset else { continue }
                let line =
                    "\(update.snapshot.fetchedObjects.map(\.title)) + \(changeset.rowInserts) − \(changeset.rowDeletes)"
                printed.withLock { $0.append(line) }
            }
        }
        try await store.write { tx in try tx.insert(Todo(title: "Ship it", position: 2)) }
        await controller.sync()
        try await store.write { tx in try tx.insert(Todo(title: "Write the README", position: 1)) }
        await controller.sync()
        try await store.write { tx in
            try tx.update(FetchRequest<Todo>(predicate: #Predicate { $0.title == "Ship it" })) { $0.done = true }
        }
        await controller.sync()
        // The reader prints on its own task: wait for its third line.
        for _ in 0..<2_000 where printed.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(5)) }
        reader.cancel()

        #expect(
            printed.withLock { $0 } == [
                #"["Ship it"] + [[0, 0]] − []"#,
                #"["Write the README", "Ship it"] + [[0, 0]] − []"#,
                #"["Write the README"] + [] − [[0, 1]]"#
            ])
        await store.close()
    }

    /// The README's delegate: only the callbacks it needs, the sender's concrete type fixing the rest.
    final class TodoTable: ResultsControllerDelegate {
        let calls = Mutex<[String]>([])
        func controllerWillChangeContent(_ controller: ResultsController<Item>) {
            calls.withLock { $0.append("begin") }
        }
        func controller(
            _ controller: ResultsController<Item>, didChange todo: Item, at rowPath: RowPath?,
            for type: ResultsChangeType, newRowPath: RowPath?
        ) {
            calls.withLock { $0.append("\(type.rawValue) \(todo.title)") }
        }
        func controllerDidChangeContent(_ controller: ResultsController<Item>) { calls.withLock { $0.append("end") } }
    }

    @Test func delegateExample() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-table-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try await SQLiteStore.open(path: path, schema: try Schema([Item.entity]))
        let controller = ResultsController(
            store: store,
            request: FetchRequest(
                Item.self, sortDescriptors: [.ascending("position")]))
        let table = TodoTable()
        controller.delegate = table
        try await controller.performFetch()
        try await store.write { tx in try tx.insert(Item(title: "Ship it", position: 2)) }
        await controller.sync()
        try await store.write { tx in try tx.update("Todo", where: .key("title") == "Ship it", set: ["position": 3.0]) }
        await controller.sync()
        #expect(table.calls.withLock { $0 } == ["begin", "insert Ship it", "end", "begin", "update Ship it", "end"])
        await store.close()
    }
}
