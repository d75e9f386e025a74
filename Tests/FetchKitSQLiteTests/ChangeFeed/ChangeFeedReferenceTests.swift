import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitSQLite

/// What the SQLite change feed reports of the foreign keys a to-many relationship follows: `todo.categoryID`
/// (Category's `todos`), before and after each changed row.
@Suite("SQLite change feed: references of changed rows")
struct ChangeFeedReferenceTests {
    typealias TodoRecord = Fixtures.TodoRecord

    static func seeded() async throws -> (SQLiteStore, ChangeRecorder) {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        return (store, ChangeRecorder(store.changes(), keepingReferences: true))
    }

    @Test("inserts, updates and deletes report the categories their todos pointed at, before and after")
    func everyOperation() async throws {
        let (store, recorder) = try await Self.seeded()
        try await store.write { tx in _ = try tx.insert(TodoRecord(id: 20, title: "new", categoryID: 2)) }
        // Todo 3 moves from Errands (3) to Work (1); todo 5's title changes in Home (2).
        try await store.write { tx in
            _ = try tx.update("Todo", key: 3, set: ["categoryID": 1])
            _ = try tx.update("Todo", key: 5, set: ["title": "x"])
        }
        try await store.write { tx in _ = try tx.delete("Todo", key: 4) }
        // A todo in no category references nothing, and says so.
        try await store.write { tx in _ = try tx.update("Todo", key: 8, set: ["title": "y"]) }
        // Deleting a category sets its todos' foreign keys to NULL (ON DELETE SET NULL).
        try await store.write { tx in _ = try tx.delete("Category", key: 2) }
        let changes = try await recorder.wait(for: 5)
        try #require(changes.count == 5)
        let references = changes.map { $0.tables["todo"]?.references }
        #expect(references[0] == ["categoryID": [.integer(2)]])
        #expect(references[1] == ["categoryID": [.integer(1), .integer(2), .integer(3)]])
        #expect(references[2] == ["categoryID": [.integer(3)]])
        #expect(references[3] == ["categoryID": []])
        #expect(references[4] == ["categoryID": [.integer(2)]])
        // Tables no to-many relationship follows report none.
        #expect(changes[4].tables["category"]?.references == [:])
        await store.close()
    }

    @Test("a rolled-back savepoint's rows leave no reference behind; a many-row statement reports every value")
    func savepointsAndManyRows() async throws {
        let (store, recorder) = try await Self.seeded()
        try await store.write { tx in
            try tx.execute("SAVEPOINT moving", [])
            _ = try tx.update("Todo", key: 3, set: ["categoryID": 1])
            try tx.execute("ROLLBACK TO moving", [])
            try tx.execute("RELEASE moving", [])
            _ = try tx.update("Todo", key: 6, set: ["priority": 9])
        }
        try await store.write { tx in _ = try tx.update("Todo", where: .true, set: ["priority": 1]) }
        let changes = try await recorder.wait(for: 2)
        try #require(changes.count == 2)
        #expect(
            changes[0].tables["todo"] == TableChange(updated: [.integer(6)], references: ["categoryID": [.integer(2)]]))
        #expect(changes[1].tables["todo"]?.references == ["categoryID": [.integer(1), .integer(2), .integer(3)]])
        await store.close()
    }
}
