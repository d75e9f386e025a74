import CSQLite
import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitSQLite

@Suite("SQLite change feed: commits by other connections (PRAGMA data_version)")
struct ChangeFeedExternalTests {
    typealias TodoRecord = Fixtures.TodoRecord

    @Test("a commit through a raw sqlite3 connection arrives as a resync within a few poll intervals")
    func rawConnectionCommit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, recorder) = try await ChangeFeedFixture.seededFile(in: directory)
        var db: OpaquePointer?
        try #require(sqlite3_open(directory.path("feed.sqlite"), &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        sqlite3_busy_timeout(db, 2000)
        let started = ContinuousClock.now
        try #require(sqlite3_exec(db, "UPDATE todo SET title = 'outside' WHERE id = 1", nil, nil, nil) == SQLITE_OK)
        let changes = try await recorder.wait(for: 1)
        let change = try #require(changes.first)
        #expect(change.isResync)
        #expect(change.touches("todo"))
        #expect(ContinuousClock.now - started < .seconds(5))
        // The resync is the store's cue to re-read: the outside row is there.
        #expect(try await store.allTodos().first?.title == "outside")
        await store.close()
    }

    @Test("a second store on the same file: its commits are a resync to the first, and vice versa")
    func secondStore() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (first, firstRecorder) = try await ChangeFeedFixture.seededFile(in: directory)
        var options = SQLiteStore.Options.testing()
        options.dataVersionPollInterval = .milliseconds(20)
        let second = try await SQLiteStore.open(
            path: directory.path("feed.sqlite"), schema: Fixtures.schema, options: options)
        let secondRecorder = ChangeRecorder(second.changes())
        try await second.write { tx in _ = try tx.delete("Todo", key: 5) }
        let seenByFirst = try await firstRecorder.wait(for: 1)
        #expect(seenByFirst.first?.isResync == true)
        let seenBySecond = try await secondRecorder.wait(for: 1)
        #expect(seenBySecond.first?.tables == ["todo": TableChange(deleted: [.integer(5)])])
        try await first.write { tx in _ = try tx.delete("Todo", key: 6) }
        let later = try await secondRecorder.wait(for: 2)
        #expect(later.dropFirst().first?.isResync == true)
        await second.close()
        await first.close()
    }

    @Test("the store's own commits and reads never cause a resync")
    func ownCommitsNoResync() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, recorder) = try await ChangeFeedFixture.seededFile(in: directory, pollInterval: .milliseconds(10))
        for index in 0..<10 {
            try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["priority": .integer(Int64(index))]) }
            _ = try await store.allTodos()
            try await Task.sleep(for: .milliseconds(15))
        }
        // Many poll intervals after the last write.
        try await Task.sleep(for: .milliseconds(200))
        let changes = recorder.changes
        #expect(changes.count == 10)
        #expect(changes.allSatisfy { !$0.isResync && $0.tables["todo"] == TableChange(updated: [.integer(1)]) })
        await store.close()
    }

    @Test("polling can be turned off; a non-positive interval is refused")
    func pollOptions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, recorder) = try await ChangeFeedFixture.seededFile(in: directory, pollInterval: nil)
        #expect(store.dataVersionPoller == nil)
        var db: OpaquePointer?
        try #require(sqlite3_open(directory.path("feed.sqlite"), &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        try #require(sqlite3_exec(db, "DELETE FROM todo WHERE id = 1", nil, nil, nil) == SQLITE_OK)
        try await Task.sleep(for: .milliseconds(100))
        try await ChangeFeedFixture.writeSentinel(store)
        let changes = try await recorder.wait(for: 1)
        #expect(changes.map(\.tables) == [ChangeFeedFixture.sentinelTables])
        await store.close()

        for interval: Duration in [.zero, .milliseconds(-5)] {
            var options = SQLiteStore.Options.testing()
            options.dataVersionPollInterval = interval
            await #expect(throws: FetchKitError.self) {
                _ = try await SQLiteStore.open(
                    path: directory.path("other.sqlite"), schema: Fixtures.schema, options: options)
            }
        }
        #expect(SQLiteStore.Options().dataVersionPollInterval == .milliseconds(100))
    }
}
