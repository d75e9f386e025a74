import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitSQLite

/// The names SQLite gives violated constraints (that violations are typed is a conformance check).
@Suite("SQLite store: constraint names")
struct SQLiteStoreWriteTests {
    typealias Todo = Fixtures.TodoRecord
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
            try await store.write { tx in try tx.insert(Todo(id: 1, title: "dup")) }
            Issue.record("a duplicate key was inserted")
        } catch let error as FetchKitError where error.code == .constraintViolation {
            let kind = (error.constraint ?? .other)
            let name = error.constraintName
            #expect(kind == .primaryKey)
            #expect(name == "todo.id")
        }
        do {
            try await store.write { tx in
                try tx.insert(Note(slug: "s", body: "b"))
                try tx.insert(Note(slug: "s", body: "c"))
            }
            Issue.record("a duplicate text key was inserted")
        } catch let error as FetchKitError where error.code == .constraintViolation {
            let kind = (error.constraint ?? .other)
            let name = error.constraintName
            #expect(kind == .primaryKey || kind == .unique)
            #expect(name == "note.slug")
        }
        do {
            try await store.write { tx in try tx.insert(["title": .null], into: "Todo") }
            Issue.record("a NULL title was inserted")
        } catch let error as FetchKitError where error.code == .constraintViolation {
            let kind = (error.constraint ?? .other)
            let name = error.constraintName
            #expect(kind == .notNull)
            #expect(name == "todo.title")
        }
        do {
            try await store.write { tx in try tx.insert(Todo(title: "orphan", categoryID: 42)) }
            Issue.record("a dangling foreign key was inserted")
        } catch let error as FetchKitError where error.code == .constraintViolation {
            let kind = (error.constraint ?? .other)
            #expect(kind == .foreignKey)
        }
        #expect(try await store.count(of: "Todo") == 10)
        await store.close()
    }

}

/// (That `execute` refuses them in a write is a conformance check.)
@Suite("Raw SQL that would end a write's transaction is recognised")
struct SQLiteTransactionControlTests {
    @Test(
        "transaction control is recognised through case and comments",
        arguments: [
            ("COMMIT", true), ("  commit transaction", true), ("/* x */ -- y\n END", true), ("BEGIN IMMEDIATE", true),
            ("rollback", true), ("ROLLBACK TRANSACTION", true), ("ROLLBACK TO sp", false),
            ("rollback transaction to savepoint sp", false), ("SAVEPOINT sp", false), ("RELEASE sp", false),
            ("SELECT 'COMMIT'", false), ("UPDATE todo SET title = 'BEGIN'", false), ("", false), ("/* open", false)
        ])
    func recognised(sql: String, controls: Bool) {
        #expect(SQLText.controlsTransaction(sql) == controls)
    }

    @Test("a full database and a read-only connection are typed errors; the write rolls back whole")
    func diskFullAndReadOnly() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        do {
            try await store.write { tx in
                // The database may not grow: a large write fills it.
                _ = try tx.execute("PRAGMA max_page_count = 1", [])
                for index in 0..<2_000 {
                    try tx.insert(Fixtures.TodoRecord(title: String(repeating: "x", count: 500) + "\(index)"))
                }
            }
            Issue.record("a write past max_page_count succeeded")
        } catch let error as FetchKitError where error.code == .diskFull {
            let message = error.message
            #expect(message.contains("full"), "\(message)")
        }
        do {
            try await store.write { tx in
                _ = try tx.execute("PRAGMA max_page_count = 100000", [])
                _ = try tx.execute("PRAGMA query_only = ON", [])
                try tx.insert(Fixtures.TodoRecord(title: "refused"))
            }
            Issue.record("a write on a query-only connection succeeded")
        } catch let error as FetchKitError where error.code == .readOnly {
            let message = error.message
            #expect(message.contains("readonly"), "\(message)")
        }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 10, "a refused write left rows")
        await store.close()
    }
}
