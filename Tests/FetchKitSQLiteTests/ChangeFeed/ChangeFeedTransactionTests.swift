import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitSQLite

@Suite("SQLite change feed: transactions, savepoints, ordering, subscribers")
struct ChangeFeedTransactionTests {
    typealias TodoRecord = Fixtures.TodoRecord
    typealias NoteRecord = Fixtures.NoteRecord

    @Test("a rolled-back write publishes nothing")
    func rolledBack() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        await #expect(throws: DeliberateError.self) {
            try await store.write { tx in
                try tx.insert(TodoRecord(title: "never"))
                _ = try tx.delete("Todo", key: 1)
                throw DeliberateError()
            }
        }
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                try tx.insert(NoteRecord(slug: "x", body: ""))
                try tx.insert(TodoRecord(id: 1, title: "duplicate key"))
            }
        }
        try await ChangeFeedFixture.writeSentinel(store)
        let changes = try await recorder.wait(for: 1)
        #expect(changes.map(\.tables) == [ChangeFeedFixture.sentinelTables])
        #expect(try await store.count(of: "Todo") == 10)
        await store.close()
    }

    @Test("a write that changes nothing publishes nothing")
    func noOpWrites() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let changed = try await store.write { tx in
            try tx.update("Todo", where: try FetchPredicate(format: "priority > 100"), set: ["done": true])
        }
        #expect(changed == 0)
        let existed = try await store.write { tx in try tx.update("Todo", key: 999, set: ["done": true]) }
        #expect(!existed)
        let fetched = try await store.write { tx in try tx.fetch(FetchRequest(entity: "Todo")).count }
        #expect(fetched == 10)
        try await store.write { tx in try tx.execute("DELETE FROM note WHERE slug = 'missing'", []) }
        try await ChangeFeedFixture.writeSentinel(store)
        let changes = try await recorder.wait(for: 1)
        #expect(changes.map(\.tables) == [ChangeFeedFixture.sentinelTables])
        await store.close()
    }

    @Test("a ROLLBACK TO naming no open savepoint fails and drops nothing")
    func rollbackToUnknownSavepoint() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.execute("SAVEPOINT a", [])
            try tx.insert(NoteRecord(slug: "kept", body: ""))
            try tx.execute("RELEASE a", [])
            #expect(throws: FetchKitError.self) { try tx.execute("ROLLBACK TO a", []) }
            #expect(throws: FetchKitError.self) { try tx.execute("ROLLBACK TO nowhere", []) }
        }
        let change = try #require(try await recorder.wait(for: 1).first)
        #expect(change.tables == ["note": TableChange(inserted: [.text("kept")])])
        await store.close()
    }

    @Test("savepoints: the published change matches what the database kept")
    func savepointsMatchDatabase() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.write { tx in
            try tx.insert(NoteRecord(slug: "keep1", body: ""))
            try tx.execute("SAVEPOINT outer", [])
            try tx.insert(NoteRecord(slug: "dropped1", body: ""))
            _ = try tx.update("Todo", key: 1, set: ["title": "dropped"])
            try tx.execute("SAVEPOINT \"Inner\"", [])
            try tx.insert(NoteRecord(slug: "dropped2", body: ""))
            try tx.execute("ROLLBACK TO OUTER", [])  // names compare case-insensitively
            try tx.insert(NoteRecord(slug: "keep2", body: ""))
            try tx.execute("SAVEPOINT [inner 2]", [])
            try tx.insert(NoteRecord(slug: "keep3", body: ""))
            try tx.execute("RELEASE \"inner 2\"", [])
            try tx.execute("SAVEPOINT third", [])
            _ = try tx.delete("Todo", key: 2)
            try tx.execute("/* comment */ ROLLBACK TRANSACTION TO SAVEPOINT third", [])
            _ = try tx.delete("Todo", key: 3)
            try tx.execute("ROLLBACK TO third", [])  // the savepoint stays open after a rollback to it
            _ = try tx.delete("Todo", key: 4)
            try tx.execute("RELEASE SAVEPOINT outer", [])
        }
        let change = try #require(try await recorder.wait(for: 1).first)
        #expect(
            change.tables == [
                "note": TableChange(inserted: [.text("keep1"), .text("keep2"), .text("keep3")]),
                "todo": TableChange(deleted: [.integer(4)])
            ])
        let notes = try await store.fetch(
            FetchRequest(NoteRecord.self, sortDescriptors: [.ascending("slug")]),
            as: NoteRecord.self)
        #expect(notes.map(\.slug) == ["keep1", "keep2", "keep3"])
        let todos = try await store.allTodos()
        #expect(todos.map(\.id) == [1, 2, 3, 5, 6, 7, 8, 9, 10])
        #expect(todos.first?.title == "Write report")
        await store.close()
    }

    @Test("two subscribers see the same changes in the same order")
    func twoSubscribers() async throws {
        let (store, first) = try await ChangeFeedFixture.seededInMemory()
        let second = ChangeRecorder(store.changes())
        for index in 0..<20 {
            try await store.write { tx in
                if index.isMultiple(of: 3) {
                    let key = Value.integer(Int64(index % 10 + 1))
                    _ = try tx.update("Todo", key: key, set: ["priority": .integer(Int64(index))])
                } else {
                    try tx.insert(NoteRecord(slug: "n\(index)", body: ""))
                }
            }
        }
        let a = try await first.wait(for: 20)
        let b = try await second.wait(for: 20)
        #expect(a.count == 20)
        #expect(a == b)
        await store.close()
    }

    @Test("100 concurrent writes arrive once each, in commit order, with increasing transaction IDs")
    func ordering() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let keys = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for index in 0..<100 {
                group.addTask {
                    try await store.write { tx in try tx.insert(TodoRecord(title: "t\(index)")).id }
                }
            }
            var keys: [Int64] = []
            for try await key in group { keys.append(try #require(key)) }
            return keys
        }
        let changes = try await recorder.wait(for: 100)
        try #require(changes.count == 100)
        let ids = changes.map(\.transactionID)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        // Each write took the next rowid when it ran, so commit order is key order.
        let reported = try changes.map { change -> Int64 in
            let todo = try #require(change.tables["todo"])
            let key = try #require(todo.inserted.first)
            guard case .integer(let value) = key else { throw DeliberateError() }
            return value
        }
        #expect(reported == Array(11...110))
        #expect(Set(reported) == Set(keys))
        await store.close()
    }

    @Test("a change arrives after its commit is visible: a fetch on receipt sees the new rows")
    func visibleOnReceipt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try await ChangeFeedFixture.seededFile(in: directory, pollInterval: nil)
        let stream = store.changes()
        let checker = Task {
            var seen: [Int64] = []
            for await change in stream {
                guard let key = change.tables["todo"]?.inserted.first, case .integer(let id) = key else { continue }
                // On a reader connection, not the writer: only a committed row can be there.
                let request = FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "id == %d", id))
                let rows = try await store.fetch(request)
                if rows.count == 1 { seen.append(id) } else { Issue.record("todo \(id) not visible on receipt") }
                if seen.count == 50 { break }
            }
            return seen
        }
        for index in 0..<50 {
            try await store.write { tx in _ = try tx.insert(TodoRecord(title: "visible \(index)")) }
        }
        let seen = try await withTimeout(.seconds(20)) { try await checker.value }
        #expect(seen == Array(11...60))
        await store.close()
    }

    @Test("close() ends every stream; a subscription after close ends at once")
    func closeEndsStreams() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await ChangeFeedFixture.writeSentinel(store)
        await store.close()
        #expect(try await recorder.waitForEnd())
        #expect(recorder.changes.map(\.tables) == [ChangeFeedFixture.sentinelTables])
        let late = ChangeRecorder(store.changes())
        #expect(try await late.waitForEnd())
        #expect(late.changes.isEmpty)
    }

    @Test("ending an iteration unsubscribes")
    func unsubscribe() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let feed = store.changeCollector.feed
        #expect(feed.subscriberCount == 1)
        recorder.cancel()
        #expect(try await recorder.waitForEnd())
        #expect(feed.subscriberCount == 0)
        try await ChangeFeedFixture.writeSentinel(store)
        #expect(recorder.changes.isEmpty)
        await store.close()
    }

    @Test("a commit outside a write (autocommit on the writer) is still published")
    func autocommitOnWriter() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        try await store.writer.run { connection in
            try connection.run("INSERT INTO note (slug, body, pinned) VALUES ('stray', '', 0)")
        }
        try await ChangeFeedFixture.writeSentinel(store)
        let changes = try await recorder.wait(for: 2)
        let stray = ["note": TableChange(inserted: [.text("stray")])]
        #expect(changes.map(\.tables) == [stray, ChangeFeedFixture.sentinelTables])
        await store.close()
    }

    @Test("a write that changes the schema reports every table whole-table; a rolled-back one nothing")
    func schemaChange() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        await #expect(throws: DeliberateError.self) {
            try await store.write { tx in
                try tx.execute("CREATE TABLE scratch (x)", [])
                throw DeliberateError()
            }
        }
        try await store.write { tx in
            try tx.execute("CREATE TABLE scratch (x)", [])
            _ = try tx.delete("Todo", key: 1)
        }
        try await store.write { tx in _ = try tx.delete("Todo", key: 2) }
        let changes = try await recorder.wait(for: 2)
        try #require(changes.count == 2)
        #expect(Set(changes[0].tables.keys) == ["todo", "category", "note"])
        #expect(changes[0].tables.values.allSatisfy { $0.isWholeTable })
        #expect(changes[0].tables["todo"]?.deleted == [.integer(1)])
        // After the commit the feed re-read the schema: the next write is exact again.
        #expect(changes[1].tables == ["todo": TableChange(deleted: [.integer(2)])])
        await store.close()
    }
}

/// Runs `body`, failing with an issue (and throwing) when it takes longer than `timeout`.
func withTimeout<T: Sendable>(
    _ timeout: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next(), let value = result else {
            Issue.record("timed out after \(timeout)")
            throw DeliberateError()
        }
        return value
    }
}
