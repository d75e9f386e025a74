import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitSQLite

/// Bulk inserts on SQLite run one prepared statement per row inside the write's transaction: the change
/// feed publishes one change naming every row, and a failure drops it with the rows.
@Suite("SQLite bulk insert")
struct SQLiteBulkInsertTests {
    typealias TodoRecord = Fixtures.TodoRecord

    @Test("one change names every row of a bulk insert, and its keys are those returned")
    func oneChangeNamesEveryRow() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        let records = (0..<2_000).map { TodoRecord(title: "bulk \($0)", priority: $0 % 9) }
        let inserted = try await store.write { tx in try tx.insert(contentsOf: records) }
        let keys = Set(inserted.compactMap(\.id).map(Value.integer))
        #expect(keys.count == 2_000)
        let changes = try await recorder.wait(for: 1)
        try #require(changes.count == 1)
        #expect(changes[0].tables == ["todo": TableChange(inserted: keys)])
        await store.close()
    }

    @Test("a failed bulk insert publishes nothing and writes nothing")
    func failedBulkInsertPublishesNothing() async throws {
        let (store, recorder) = try await ChangeFeedFixture.seededInMemory()
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                _ = try tx.insert(contentsOf: [TodoRecord(id: 20, title: "new"), TodoRecord(id: 3, title: "duplicate")])
            }
        }
        try await store.write { tx in _ = try tx.insert(contentsOf: [TodoRecord(id: 21, title: "after")]) }
        let changes = try await recorder.wait(for: 1)
        #expect(changes.map(\.tables) == [["todo": TableChange(inserted: [.integer(21)])]])
        #expect(try await store.count(of: "Todo") == 11)
        await store.close()
    }
}
