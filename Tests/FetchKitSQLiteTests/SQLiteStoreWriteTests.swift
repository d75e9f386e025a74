import FetchKit
import FetchKitDrivers
@testable import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// The names SQLite gives violated constraints (that violations are typed is a conformance check).
@Suite("SQLite store: constraint names")
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
