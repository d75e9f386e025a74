import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

/// The logical-replication feed on a real server: one change per committed transaction, whoever wrote it, with
/// images of the rows it wrote that equal a fresh fetch; TRUNCATE as a whole-table change; no trigger installed.
@Suite("PostgreSQL logical feed", .requiresPostgreSQL)
struct LogicalFeedTests {
    typealias Collector = PostgresChangeCaptureTests.Collector

    static func logicalOptions(readers: Int = 2) -> PostgresStore.Options {
        var options = PostgresStore.Options(readerCount: readers)
        options.changeFeed = .logical
        return options
    }

    /// The rows of `keys` in `entity`, fetched now, as images.
    static func fetchedImages(
        _ store: PostgresStore, entity: String, keys: Set<Value>
    ) async throws -> [Value: TableChange.Image] {
        let rows = try await store.fetch(
            FetchRequest(entity: entity, predicate: .comparison(.init(.object, .in, .list(Array(keys))))))
        var images = Dictionary(uniqueKeysWithValues: keys.map { ($0, TableChange.Image.absent) })
        for row in rows { images[row["id"] ?? .null] = .row(row) }
        return images
    }

    @Test func oneTransactionIsOneChangeWithTheRowsItWrote() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.logicalOptions())
        #expect(store.changeFeedKind == .logical)
        #expect("\(store)".contains("change feed: logical, publication fetchkit_"))
        let collector = Collector(store)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        try await store.write { tx in
            try tx.insert(Fixtures.TodoRecord(id: 20, title: "new"))
            try tx.update(
                "Todo", key: 1, set: ["title": "renamed", "due": .date(Date(timeIntervalSince1970: 1_795_824_000))])
            try tx.delete("Todo", key: 2)
            try tx.update("Todo", where: try FetchPredicate(format: "priority == 5"), set: ["done": true])
        }
        let changes = try await collector.wait(for: 2)
        try #require(changes.count == 2, "\(changes)")
        #expect(changes[0].tables["todo"]?.inserted == Set((1...10).map { Value.integer(Int64($0)) }))
        #expect(changes[0].tables["category"]?.inserted.count == 3)
        let todo = try #require(changes[1].tables["todo"])
        #expect(todo.inserted == [.integer(20)])
        #expect(todo.updated == [.integer(1), .integer(5)])
        #expect(todo.deleted == [.integer(2)])
        #expect(todo.images == (try await Self.fetchedImages(store, entity: "Todo", keys: todo.allKeys)))
        // Reports of the feed's delivery (behind, on a loaded machine) may have taken numbers since.
        #expect(store.lastTransactionID >= changes[1].transactionID)
        // Each change says where its commit ends in the log, in commit order.
        let positions = changes.compactMap(\.logPosition)
        #expect(positions.count == 2 && positions[0] < positions[1])
        // No trigger costs the writers anything.
        let triggers = try await PostgresServer.query(
            "SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = "
                + "c.relnamespace WHERE n.nspname = '\(namespace)' AND NOT t.tgisinternal")
        #expect(triggers.isEmpty)
        await store.close()
    }

    /// A write by another client (a bare connection, as psql) arrives the same way, with its rows.
    @Test func writesByAnyClientArriveWithTheirRows() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.logicalOptions())
        let collector = Collector(store)
        let other = try await PostgresServer.pool(name: "fkt-psql", searchPath: namespace)
        try await other.run { connection in
            _ = try connection.run(
                """
                BEGIN;
                INSERT INTO category (id, name, position) VALUES (7, 'Outside', 9);
                INSERT INTO todo (id, title, done, priority, category_id, attachment) VALUES \
                (70, 'from psql', false, 1, 7, '\\x0102'), (71, 'too', false, 1, NULL, NULL);
                DELETE FROM todo WHERE id = 71;
                COMMIT;
                """)
        }
        let change = try #require(try await collector.wait(for: 1).first)
        #expect(change.tables["category"]?.inserted == [.integer(7)])
        let todo = try #require(change.tables["todo"])
        #expect(todo.inserted == [.integer(70)])
        #expect(todo.deleted == [.integer(71)])
        #expect(todo.images == (try await Self.fetchedImages(store, entity: "Todo", keys: todo.allKeys)))
        await other.shutDown()
        await store.close()
    }

    /// TRUNCATE is a whole-table change, without images.
    @Test func truncateIsAWholeTableChange() async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: Self.logicalOptions())
        let collector = Collector(store)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        try await store.write { tx in _ = try tx.execute("TRUNCATE todo", []) }
        let changes = try await collector.wait(for: 2)
        #expect(changes[1].tables["todo"] == TableChange(isWholeTable: true))
        await store.close()
    }

    /// A transaction that has an ID but whose commit carries no change (an upsert that locked the conflicting row
    /// and updated nothing) returns once
    /// the feed has read past it, not after the publish timeout; one that wrote nothing returns at once.
    @Test func aWriteWithoutAChangeDoesNotWaitForOne() async throws {
        var options = Self.logicalOptions()
        options.listener.publishTimeout = .seconds(30)
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let start = ContinuousClock.now
        try await store.write { tx in
            _ = try tx.execute(
                "INSERT INTO category (id, name, position) VALUES (1, 'x', 0) "
                    + "ON CONFLICT (id) DO UPDATE SET name = 'y' WHERE false", [])
        }
        try await store.write { tx in _ = try tx.execute("DELETE FROM category WHERE id = -1", []) }
        #expect(ContinuousClock.now - start < .seconds(10))
        await store.close()
    }
}
