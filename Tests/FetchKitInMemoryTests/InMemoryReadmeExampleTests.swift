import FetchKit
import FetchKitInMemory
import FetchKitTesting
import Foundation
import Testing

/// The example of "Testing controllers without a database" (Sources/FetchKit/FetchKit.docc/TestingWithoutADatabase.md),
/// compiled and run, so it stays true.
@Suite("Testing without a database: the article's InMemoryStore example")
struct InMemoryReadmeExampleTests {
    struct Todo: Record {
        static let entity = Entity(
            "Todo", table: "todo", primaryKey: .integer("id"),
            attributes: [
                Attribute("title", .text), Attribute("done", .bool, default: false), Attribute("position", .double)
            ])
        var id: Int64?
        var title: String
        var done = false
        var position: Double
    }

    // TestingWithoutADatabase.md: begin
    @Test func openTodosFollowWrites() async throws {
        let store = InMemoryStore(schema: try Schema([Todo.entity]))
        try await store.write { tx in
            try tx.insert(Todo(title: "Ship it", position: 2))
            try tx.insert(Todo(title: "Write the README", position: 1))
        }
        let open = try FetchRequest<Todo>(predicate: #Predicate { !$0.done }, sortBy: [SortDescriptor(\.position)])
        let controller = ResultsController(store: store, request: open)
        let recorder = ChangesetRecorder<ResultsController<Todo>>()
        controller.delegate = recorder
        try await controller.performFetch()
        #expect(controller.fetchedObjects.map(\.title) == ["Write the README", "Ship it"])

        try await store.write { tx in
            try tx.update(FetchRequest<Todo>(predicate: #Predicate { $0.title == "Ship it" })) { $0.done = true }
        }
        await controller.sync()  // the write has reached the controller and its delegate
        #expect(controller.fetchedObjects.map(\.title) == ["Write the README"])
        #expect(recorder.takeBatches().last?.changeset?.rowDeletes == [RowPath(section: 0, row: 1)])
        let fresh = try await store.fetch(open)  // the controller equals a fresh fetch
        #expect(controller.fetchedObjects.map(\.title) == fresh.map(\.title))
        await store.close()
    }
    // TestingWithoutADatabase.md: end
}
