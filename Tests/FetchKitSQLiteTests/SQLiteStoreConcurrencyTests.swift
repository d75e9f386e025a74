import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitSQLite

@Suite("SQLite store: readers, writers, busy handling", .serialized)
struct SQLiteStoreConcurrencyTests {
    typealias Todo = Fixtures.TodoRecord

    /// A second connection on the same file holding the write lock, as another process would.
    private func lockingConnection(_ path: String) throws -> SQLiteConnection {
        let other = try SQLiteConnection.open(
            .init(path: path, readOnly: false, busyTimeoutMilliseconds: 0, statementCacheCapacity: 0))
        try other.run("BEGIN IMMEDIATE")
        try other.run("INSERT INTO category (name, position) VALUES ('other process', 9)")
        return other
    }

    @Test("a write waits for another connection's transaction and fails busy after the timeout")
    func busyTimeout() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let store = try await SQLiteStore.open(
            path: path, schema: Fixtures.schema, options: .testing(readers: 1, busyTimeout: .milliseconds(200)))
        let other = try lockingConnection(path)
        let started = ContinuousClock.now
        do {
            try await store.write { tx in try tx.insert(Fixtures.CategoryRecord(name: "mine")) }
            Issue.record("the write succeeded while another connection held the lock")
        } catch let error as FetchKitError where error.code == .busy {
            let message = error.message
            #expect(message.contains("locked"), "\(message)")
        }
        #expect(ContinuousClock.now - started >= .milliseconds(150))
        // Readers are not blocked by the other writer.
        #expect(try await store.count(of: "Category") == 0)
        try other.run("ROLLBACK")
        other.close()
        try await store.write { tx in try tx.insert(Fixtures.CategoryRecord(name: "mine")) }
        #expect(try await store.count(of: "Category") == 1)
        await store.close()
    }

    @Test("a write waiting on another connection succeeds once that one commits")
    func busyThenCommit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wait.sqlite")
        let store = try await SQLiteStore.open(
            path: path, schema: Fixtures.schema, options: .testing(readers: 1, busyTimeout: .seconds(10)))
        let other = try lockingConnection(path)
        let write = Task {
            try await store.write { tx in try tx.insert(Fixtures.CategoryRecord(name: "mine")).id }
        }
        try await Task.sleep(for: .milliseconds(300))
        try other.run("COMMIT")
        other.close()
        let id = try await write.value
        #expect(id == 2)
        let names = try await store.fetch(
            FetchRequest(Fixtures.CategoryRecord.self, sortDescriptors: [.ascending("id")]),
            as: Fixtures.CategoryRecord.self
        ).map(\.name)
        #expect(names == ["other process", "mine"])
        await store.close()
    }

    @Test("a repeated fetch reuses the reader's prepared statement")
    func statementReuse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await SQLiteStore.open(
            path: directory.path("cache.sqlite"), schema: Fixtures.schema, options: .testing(readers: 1))
        try await store.seed()
        let request = FetchRequest(Todo.self, predicate: try FetchPredicate(format: "priority > %d", 1))
        let reader = try #require(store.readers)
        let before = try await reader.run { ($0.statements.hits, $0.statements.misses) }
        for _ in 0..<5 { _ = try await store.fetch(request, as: Todo.self) }
        let after = try await reader.run { ($0.statements.hits, $0.statements.misses) }
        #expect(after.1 - before.1 == 1)
        #expect(after.0 - before.0 == 4)
        await store.close()
    }

    @Test("[c] and [d] comparisons run through fk_casefold and fk_unaccent")
    func foldingFunctions() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        func titles(_ format: String, _ argument: String) async throws -> [String] {
            try await store.fetch(
                FetchRequest(
                    Todo.self, predicate: try FetchPredicate(format: format, argument),
                    sortDescriptors: [.ascending("id")]), as: Todo.self
            ).map(\.title)
        }
        #expect(try await titles("title BEGINSWITH[c] %@", "write") == ["Write report", "WRITE tests"])
        #expect(try await titles("title BEGINSWITH %@", "write") == [])
        #expect(try await titles("title ==[cd] %@", "CAFE ORDER") == ["Café order"])
        #expect(try await titles("notes CONTAINS[d] %@", "resume") == ["Café order"])
        #expect(try await titles("title LIKE %@", "write*") == [])
        await store.close()
    }
}
