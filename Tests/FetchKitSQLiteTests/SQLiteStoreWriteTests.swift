import FetchKit
import FetchKitDrivers
@testable import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

@Suite("SQLite store: writes and transactions")
struct SQLiteStoreWriteTests {
    typealias Task = Fixtures.TaskRecord
    typealias Category = Fixtures.CategoryRecord
    typealias Note = Fixtures.NoteRecord

    private func seededStore() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        return store
    }

    @Test("constraint violations name the constraint")
    func constraintNames() async throws {
        let store = try await seededStore()
        do {
            try await store.write { tx in try tx.insert(Task(id: 1, title: "dup")) }
            Issue.record("a duplicate key was inserted")
        } catch FetchKitError.constraintViolation(let kind, let name, _) {
            #expect(kind == .primaryKey)
            #expect(name == "task.id")
        }
        do {
            try await store.write { tx in
                try tx.insert(Note(slug: "s", body: "b"))
                try tx.insert(Note(slug: "s", body: "c"))
            }
            Issue.record("a duplicate text key was inserted")
        } catch FetchKitError.constraintViolation(let kind, let name, _) {
            #expect(kind == .primaryKey || kind == .unique)
            #expect(name == "note.slug")
        }
        do {
            try await store.write { tx in try tx.insert(["title": .null], into: "Task") }
            Issue.record("a NULL title was inserted")
        } catch FetchKitError.constraintViolation(let kind, let name, _) {
            #expect(kind == .notNull)
            #expect(name == "task.title")
        }
        do {
            try await store.write { tx in try tx.insert(Task(title: "orphan", categoryID: 42)) }
            Issue.record("a dangling foreign key was inserted")
        } catch FetchKitError.constraintViolation(let kind, _, _) {
            #expect(kind == .foreignKey)
        }
        #expect(try await store.count(of: "Task") == 10)
        await store.close()
    }

    @Test("injection attempts through values are stored verbatim and the table stays intact")
    func injection() async throws {
        let store = try await seededStore()
        let hostile = "x'); DROP TABLE task; --"
        try await store.write { tx in
            try tx.insert(Task(title: hostile, notes: "\"; DELETE FROM task; --"))
            try tx.update("Task", key: 1, set: ["title": .text(hostile)])
            _ = try tx.execute("UPDATE task SET notes = ? WHERE id = ?", [.text(hostile), 2])
        }
        let found = try await store.fetch(
            FetchRequest(Task.self, predicate: try FetchPredicate(format: "title == %@", hostile),
                         sortDescriptors: [.ascending("id")]), as: Task.self)
        #expect(found.map(\.id) == [1, 11])
        #expect(try await store.count(of: "Task") == 11)
        #expect(try await store.allTasks().dropFirst().first?.notes == hostile)
        await store.close()
    }

    @Test("execute runs one raw statement and returns the rows it changed")
    func execute() async throws {
        let store = try await seededStore()
        let (changed, selected, created) = try await store.write { tx in
            (
                try tx.execute("UPDATE task SET priority = priority + 1 WHERE done = ?", [.bool(true)]),
                try tx.execute("SELECT * FROM task", []),
                try tx.execute("CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT)", [])
            )
        }
        #expect(changed == 4)
        #expect(selected == 0)
        #expect(created == 0)
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.execute("DELETE FROM task WHERE id = 1; DROP TABLE task", []) }
        }
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.execute("UPDATE task SET title = ?", []) }
        }
        #expect(try await store.count(of: "Task") == 10)
        await store.close()
    }

    @Test("records of another entity do not decode from a request")
    func wrongEntity() async throws {
        let store = try await seededStore()
        await #expect(throws: FetchKitError.self) {
            _ = try await store.fetch(FetchRequest(entity: "Category"), as: Task.self)
        }
        await store.close()
    }
}

/// (That `execute` refuses them in a write is a conformance check.)
@Suite("Raw SQL that would end a write's transaction is recognised")
struct SQLiteTransactionControlTests {
    @Test("transaction control is recognised through case and comments", arguments: [
        ("COMMIT", true), ("  commit transaction", true), ("/* x */ -- y\n END", true), ("BEGIN IMMEDIATE", true),
        ("rollback", true), ("ROLLBACK TRANSACTION", true), ("ROLLBACK TO sp", false),
        ("rollback transaction to savepoint sp", false), ("SAVEPOINT sp", false), ("RELEASE sp", false),
        ("SELECT 'COMMIT'", false), ("UPDATE task SET title = 'BEGIN'", false), ("", false), ("/* open", false),
    ])
    func recognised(sql: String, controls: Bool) {
        #expect(SQLText.controlsTransaction(sql) == controls)
    }
}
