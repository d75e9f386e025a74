@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// Bulk inserts on PostgreSQL: one `COPY` per call inside the write's transaction. Its statement-level
/// trigger names every key below the notification row limit and sends a whole-table hint above it; live
/// controllers in this and another instance converge either way. A failed `COPY` rolls the write back and
/// leaves the same connection usable; keys come from the key's sequence, or row by row without one.
@Suite("PostgreSQL bulk insert", .requiresPostgreSQL)
struct PostgresBulkInsertTests {
    typealias TodoRecord = Fixtures.TodoRecord
    typealias Collector = PostgresChangeCaptureTests.Collector

    static func todos(_ count: Int, from start: Int64, title: String) -> [TodoRecord] {
        (0..<Int64(count)).map {
            TodoRecord(id: start + $0, title: "\(title) \($0)", priority: Int($0 % 5), categoryID: 1 + $0 % 3)
        }
    }

    @Test func bulkInsertBelowTheRowLimitNamesEveryKeyAndAboveItHintsTheTable() async throws {
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, options: .init(readerCount: 1, notificationRowLimit: 100))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let collector = Collector(store)
        let below = Self.todos(100, from: 100, title: "below")
        let above = Self.todos(101, from: 300, title: "above")
        try await store.write { tx in _ = try tx.insert(contentsOf: below) }
        try await store.write { tx in
            _ = try tx.insert(contentsOf: above.map { try RecordCoding.encode($0) }, into: "Todo")
        }
        let changes = try await collector.wait(for: 2)
        #expect(changes[0].tables["todo"]?.inserted == Set(below.compactMap(\.id).map(Value.integer)))
        #expect(changes[0].tables["todo"]?.isWholeTable == false)
        #expect(changes[1].tables["todo"]?.isWholeTable == true)
        await store.close()
    }

    /// Controllers in this instance and in another (which learns of the rows only through the notifications)
    /// converge after bulk inserts below and above the row limit.
    @Test func liveControllersConvergeBelowAndAboveTheRowLimit() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let options = PostgresStore.Options(readerCount: 1, notificationRowLimit: 200)
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        let other = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let here = try await PostgresLiveResultsTests.liveController(on: store)
        let there = try await PostgresLiveResultsTests.liveController(on: other)
        for (count, start) in [(150, 1_000), (5_000, 10_000)] {
            let records = Self.todos(count, from: Int64(start), title: "batch \(count)")
            try await store.write { tx in _ = try tx.insert(contentsOf: records) }
            try await PostgresLiveResultsTests.converge(here.0, here.1, in: store, within: .seconds(60))
            try await PostgresLiveResultsTests.converge(there.0, there.1, in: other, within: .seconds(60))
        }
        #expect(there.0.fetchedObjects.count == 5_160)
        #expect(there.0.statistics.incrementalUpdates >= 1, "150 rows came key by key")
        #expect(there.0.statistics.fullRefreshes >= 1, "5,000 rows came as a table-level hint")
        await other.close()
        await store.close()
    }

    /// A COPY the server refuses (a duplicate key) fails the write with a typed error and rolls back what the
    /// transaction wrote before it; the same connection (same server process) runs the next write.
    @Test func aFailedCopyRollsBackAndTheConnectionRunsTheNextWrite() async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: .init(readerCount: 1))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let before = try await Self.backendPID(store)
        await #expect {
            try await store.write { tx in
                try tx.insert(TodoRecord(id: 50, title: "before the copy"))
                _ = try tx.insert(
                    contentsOf: Self.todos(3_000, from: 100, title: "copy") + [TodoRecord(id: 7, title: "dup")])
            }
        } throws: { error in
            guard let error = error as? FetchKitError, error.code == .constraintViolation,
                error.constraint == .unique
            else {
                return false
            }
            return error.constraintName == "todo_pkey"
        }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 10)
        #expect(try await Self.backendPID(store) == before, "the writer reconnected")
        let inserted = try await store.write { tx in
            try tx.insert(contentsOf: Self.todos(10, from: 100, title: "again"))
        }
        #expect(inserted.count == 10)
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 20)
        await store.close()
    }

    /// The server process of the store's writer connection.
    static func backendPID(_ store: PostgresStore) async throws -> Int32 {
        try await store.writer.run { connection in connection.backendPID }
    }

    /// A role with rights on the tables only may not take keys from the identity sequence itself: its bulk
    /// insert lets the column's default assign them, row by row, and live controllers still converge.
    @Test func anAppRoleWithOnlyTableRightsBulkInsertsWithAssignedKeys() async throws {
        let namespace = try await PostgresLeastPrivilegeTests.provisioned()
        let (_, url) = try await PostgresLeastPrivilegeTests.appRole(for: namespace)
        let store = try await PostgresStore.open(url: url, schema: Fixtures.schema, options: .init(readerCount: 1))
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        let inserted = try await store.write { tx in
            try tx.insert(contentsOf: [
                TodoRecord(title: "assigned", categoryID: 1), TodoRecord(id: 600, title: "chosen"),
                TodoRecord(title: "assigned too", categoryID: 2)
            ])
        }
        #expect(inserted.map(\.id) == [11, 600, 12])
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.count == 13)
        await store.close()
    }

    /// A key whose default is no owned sequence (`pg_get_serial_sequence` finds none): keys the database
    /// assigns come back through one `INSERT … RETURNING` per row, and rows giving keys still go in.
    @Test func keysWithoutAnOwnedSequenceAreReturnedRowByRow() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer(
            """
            CREATE SCHEMA \(namespace); CREATE SEQUENCE \(namespace).loose START 500;
            CREATE TABLE \(namespace).item (id bigint PRIMARY KEY DEFAULT nextval('\(namespace).loose'), name text \
            NOT NULL)
            """)
        let item = Entity("Item", table: "item", attributes: [Attribute("name", .text)])
        let store = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: Schema([item]), options: .init(readerCount: 1))
        let keys = try await store.write { tx in
            try tx.insert(contentsOf: [["name": "a"], ["id": 7, "name": "b"], ["name": "c"]], into: "Item")
        }
        #expect(keys == [.integer(500), .integer(7), .integer(501)])
        let rows = try await store.fetch(FetchRequest(entity: "Item", sortDescriptors: [.ascending("id")]))
        #expect(rows.map { $0["name"] } == ["b", "a", "c"])
        await store.close()
    }

    /// A DBA's table with columns of other types than FetchKit's own: its rows go one statement each, through
    /// their casts, with every value checked against its column.
    @Test func aTableOfDatabaseSpecificTypesTakesBulkInsertsRowByRow() async throws {
        let namespace = try await NativeTables.namespace(
            """
            CREATE TABLE badge (id serial PRIMARY KEY, holder uuid NOT NULL, level smallint NOT NULL,
                issued date, note varchar(8));
            """)
        let store = try await NativeTables.open(
            try Schema([
                Entity(
                    "badge",
                    attributes: [
                        Attribute("holder", .text), Attribute("level", .integer),
                        Attribute("issued", .date, optional: true),
                        Attribute("note", .text, optional: true)
                    ])
            ]), in: namespace)
        let holders = (0..<50).map { _ in UUID().uuidString.lowercased() }
        let rows: [Row] = holders.enumerated().map { index, holder in
            [
                "holder": .text(holder), "level": .integer(Int64(index % 7)),
                "issued": index % 2 == 0 ? .date(NativeTables.date(2026, 1, 1 + index % 28)) : .null,
                "note": .text("n\(index)")
            ]
        }
        let keys = try await store.write { tx in try tx.insert(contentsOf: rows, into: "badge") }
        #expect(keys == (1...50).map { .integer(Int64($0)) })
        let fetched = try await store.fetch(FetchRequest(entity: "badge", sortDescriptors: [.ascending("id")]))
        #expect(fetched.map { $0["holder"] } == holders.map { .text($0) })
        #expect(fetched[2]["issued"] == .date(NativeTables.date(2026, 1, 3)) && fetched[1]["issued"] == .null)
        // One value its column cannot hold refuses the whole call, naming the column.
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                _ = try tx.insert(
                    contentsOf: [
                        ["holder": .text(holders[0]), "level": .integer(1)],
                        ["holder": .text(holders[1]), "level": .integer(70_000)]
                    ], into: "badge")
            }
        }
        #expect(try await store.count(FetchRequest(entity: "badge")) == 50)
        await store.close()
    }
}
