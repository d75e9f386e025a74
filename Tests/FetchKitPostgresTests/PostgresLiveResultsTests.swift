import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// Live controllers over PostgreSQL when writes come from elsewhere: another app instance (a second store
/// with its own connections and listener), one statement over 50,000 rows (the table-level fallback), and
/// a long transaction that commits after later ones. Every controller converges to a fresh fetch, and every
/// batch passes ListSimulator. Each test runs on both change feeds.
@Suite("PostgreSQL live results across instances", .requiresPostgreSQL)
struct PostgresLiveResultsTests {
    static let feeds: [PostgresStore.ChangeFeedKind] = [.triggers, .logical]

    static func options(_ feed: PostgresStore.ChangeFeedKind, readers: Int = 2) -> PostgresStore.Options {
        var options = PostgresStore.Options(readerCount: readers)
        options.changeFeed = feed
        return options
    }

    static let request = FetchRequest(
        entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("title")],
        sectionNameKeyPath: "category.name")

    /// Waits (up to 60 s) until `controller` matches a fresh fetch, then checks every batch it emitted. A minute:
    /// under a full suite's load on two cores, the logical feed's WAL sender decodes every other test's writes too,
    /// and was seen more than 10 s behind (its controllers saying so in their status meanwhile).
    static func converge(
        _ controller: ResultsController<Row>, _ recorder: ResultsRecorder<Row>, in store: any PersistentStore,
        within timeout: Duration = .seconds(60)
    ) async throws {
        try await ResultsOracle.converge(controller, recorder, in: store, within: timeout)
    }

    static func liveController(on store: PostgresStore) async throws -> (
        ResultsController<Row>, ResultsRecorder<Row>
    ) {
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        return (controller, recorder)
    }

    @Test(arguments: feeds)
    func writesInOneInstanceReachControllersInAnother(feed: PostgresStore.ChangeFeedKind) async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let first = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.options(feed))
        let second = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: Fixtures.schema,
            options: Self.options(feed, readers: 1))
        try await first.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await Self.liveController(on: second)
        try await first.write { tx in
            try tx.insert(Fixtures.TodoRecord(id: 11, title: "Aardvark", categoryID: 1))
            try tx.update("Todo", key: 4, set: ["categoryID": 1])
            try tx.delete("Todo", key: 8)
        }
        try await Self.converge(controller, recorder, in: second)
        #expect(controller.statistics.incrementalUpdates >= 1)
        try await first.write { tx in try tx.update("Category", key: 1, set: ["name": "Zzz"]) }
        try await Self.converge(controller, recorder, in: second)
        await second.close()
        await first.close()
    }

    /// Another process — psql — writes; the live controller in this process converges.
    @Test(arguments: feeds)
    func writesByAnotherProcessReachControllers(feed: PostgresStore.ChangeFeedKind) async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.options(feed))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await Self.liveController(on: store)
        let bin = ProcessInfo.processInfo.environment["PGBIN"] ?? "/usr/lib/postgresql/15/bin"
        let url = try PostgresServer.requiredURLText()
        let sql =
            "SET search_path = \(namespace); BEGIN; INSERT INTO todo (id, title, done, priority, category_id) "
            + "VALUES (40, 'from psql', false, 3, 1); UPDATE todo SET category_id = 2 WHERE id = 1; "
            + "DELETE FROM todo WHERE id = 3; COMMIT;"
        let output = try await PrivateServer.onThread {
            try PrivateServer.run("\(bin)/psql -X -q -v ON_ERROR_STOP=1 '\(url)' -c \"\(sql)\"")
        }
        _ = output
        try await Self.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["id"] == .integer(40) })
        #expect(!controller.fetchedObjects.contains { $0["id"] == .integer(3) })
        await store.close()
    }

    @Test(arguments: feeds)
    func fiftyThousandRowStatementIsFollowed(feed: PostgresStore.ChangeFeedKind) async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: Self.options(feed))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await Self.liveController(on: store)
        try await store.write { tx in
            _ = try tx.execute(
                "INSERT INTO todo (id, title, done, priority, category_id) SELECT g, 't' || g, false, 1, 1 + g % 3 "
                    + "FROM generate_series(100, 50099) AS g",
                [])
        }
        // Refetching 50,010 rows while the rest of the suite loads the machine can take seconds.
        try await Self.converge(controller, recorder, in: store, within: .seconds(90))
        #expect(controller.fetchedObjects.count == 50_010)
        // The triggers send a table-level hint past 10,000 rows, the log sends every key: either way 50,000 new
        // rows against 10 are cheaper refetched.
        #expect(controller.statistics.fullRefreshes >= 1, "the 50,000-row statement was applied row by row")
        try await store.write { tx in _ = try tx.execute("UPDATE todo SET title = title || '!' WHERE id >= 100", [])
        }
        try await Self.converge(controller, recorder, in: store, within: .seconds(90))
        await store.close()
    }

    /// A transaction that started first but commits last: its change arrives last, and the controller still
    /// ends equal to the database.
    @Test(arguments: feeds)
    func aLongTransactionCommittingLastIsAppliedLast(feed: PostgresStore.ChangeFeedKind) async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: Self.options(feed))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await Self.liveController(on: store)
        let changes = store.changes()
        let long = try await PostgresServer.pool(name: "fkt-long", searchPath: namespace)
        try await long.run { connection in
            _ = try connection.run(
                "BEGIN; UPDATE todo SET title = 'long' WHERE id = 1; INSERT INTO todo (id, title, done, priority) "
                    + "VALUES (30, 'long', false, 1)"
            )
        }
        for id in [31, 32, 33] as [Int64] {
            try await store.write { tx in
                try tx.insert(Fixtures.TodoRecord(id: id, title: "short \(id)", categoryID: 2))
            }
        }
        try await long.run { connection in _ = try connection.run("COMMIT") }
        var iterator = changes.makeAsyncIterator()
        var order: [Set<Value>] = []
        while order.count < 4, let change = await iterator.next() {
            // Reports of the feed's delivery (it is behind while the long transaction holds the log) name no rows.
            guard change.delivery == nil else { continue }
            order.append(change.tables["todo"]?.allKeys ?? [])
        }
        #expect(order == [[.integer(31)], [.integer(32)], [.integer(33)], [.integer(1), .integer(30)]])
        try await Self.converge(controller, recorder, in: store)
        await long.shutDown()
        await store.close()
    }
}
