import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

/// Change capture on a real server: triggers notify, the listener turns one transaction into one change,
/// whoever wrote it; large statements become table-level hints; garbage becomes a resync; a terminated
/// listener reconnects and resyncs.
@Suite("PostgreSQL change capture", .requiresPostgreSQL)
struct PostgresChangeCaptureTests {
    /// Collects a store's changes.
    final class Collector: Sendable {
        final class Box: Sendable {
            let changes = Mutex<[StoreChange]>([])
        }

        private let received = Box()
        private let task: Task<Void, Never>

        init(_ store: PostgresStore) {
            let stream = store.changes()
            let received = self.received
            // Committed transactions and resyncs: not the feed's delivery reports (``FeedDelivery``).
            task = Task {
                for await change in stream where change.delivery == nil {
                    received.changes.withLock { $0.append(change) }
                }
            }
        }

        deinit { task.cancel() }

        var changes: [StoreChange] { received.changes.withLock { $0 } }

        /// Waits (up to `limit`: 10 s unless told) until `count` changes arrived.
        func wait(for count: Int, within limit: Duration = .seconds(10)) async throws -> [StoreChange] {
            let deadline = ContinuousClock.now + limit
            while changes.count < count && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            let changes = self.changes
            try #require(changes.count >= count, "got \(changes.count) changes, expected \(count): \(changes)")
            return changes
        }
    }

    @Test func oneTransactionIsOneChangeWithEveryKey() async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema)
        let collector = Collector(store)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        try await store.write { tx in
            try tx.insert(Fixtures.TodoRecord(id: 20, title: "new"))
            try tx.update("Todo", key: 1, set: ["title": "renamed"])
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
        // Increasing: a report of the feed's delivery (under load, that it is behind) takes a number between them.
        #expect(changes[1].transactionID > changes[0].transactionID)
        #expect(store.lastTransactionID >= changes[1].transactionID)
        await store.close()
    }

    /// A write by another client (here a bare connection, as psql would) is captured the same way.
    @Test func writesByAnyClientAreCaptured() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)
        let collector = Collector(store)
        let other = try await PostgresServer.pool(name: "fkt-psql", searchPath: namespace)
        try await other.run { connection in
            _ = try connection.run(
                """
                BEGIN;
                INSERT INTO category (id, name, position) VALUES (7, 'Outside', 9);
                INSERT INTO todo (id, title, done, priority, category_id) VALUES (70, 'from psql', false, 1, 7),
                (71, \
                'too', false, 1, NULL);
                DELETE FROM todo WHERE id = 71;
                COMMIT;
                """)
        }
        let change = try #require(try await collector.wait(for: 1).first)
        #expect(change.tables["category"]?.inserted == [.integer(7)])
        // 71 was inserted and deleted in the transaction: named as deleted (keys are named conservatively).
        #expect(change.tables["todo"]?.inserted == [.integer(70)])
        #expect(change.tables["todo"]?.deleted == [.integer(71)])
        await other.shutDown()
        await store.close()
    }

    /// Above the row limit a statement sends one table-level hint; TRUNCATE too.
    @Test func largeStatementsAndTruncateAreWholeTableChanges() async throws {
        var options = PostgresStore.Options(readerCount: 1)
        options.notificationRowLimit = 100
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        let collector = Collector(store)
        try await store.write { tx in
            _ = try tx.execute(
                "INSERT INTO todo (id, title, done, priority) SELECT g, 't' || g, false, 1 FROM generate_series(1, "
                    + "500) AS g",
                [])
        }
        try await store.write { tx in _ = try tx.execute("TRUNCATE todo", []) }
        let changes = try await collector.wait(for: 2)
        #expect(changes[0].tables["todo"]?.isWholeTable == true)
        #expect(changes[1].tables["todo"]?.isWholeTable == true)
        await store.close()
    }

    /// A key too long for a notification's payload sends a table-level hint: the write goes through.
    @Test func aKeyTooLongForANotificationIsATableLevelHint() async throws {
        let tag = Entity("Tag", table: "tag", primaryKey: .text("name"), attributes: [Attribute("uses", .integer)])
        let store = try await PostgresServer.isolatedStore(schema: try Schema([tag]))
        let collector = Collector(store)
        let long = String(repeating: "k", count: 8_000)
        try await store.write { tx in
            _ = try tx.insert(["name": .text(long), "uses": 1], into: "Tag")
            _ = try tx.insert(["name": "short", "uses": 1], into: "Tag")
        }
        let change = try #require(try await collector.wait(for: 1).first)
        #expect(change.tables["tag"]?.isWholeTable == true)
        await store.close()
    }

    /// A full NOTIFY queue (SQLSTATE 54000) is a typed, transient error that says what to look for.
    @Test func aFullNotifyQueueIsATypedError() {
        let error = PostgresErrorMapping.error(
            state: "54000", message: "too many notifications in the NOTIFY queue", constraint: nil, column: nil,
            sql: nil)
        #expect(error.code == .busy)
        #expect(error.message.contains("pg_notification_queue_usage()"))
    }

    /// The capture triggers of the tables in `namespace`: name, table, arguments, by OID.
    static func triggers(in namespace: String) async throws -> [Int64: String] {
        let rows = try await PostgresServer.query(
            "SELECT t.oid::int8 AS oid, c.relname || '.' || t.tgname || ' ' || encode(t.tgargs, 'escape') AS what "
                + "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = "
                + "c.relnamespace "
                + "WHERE n.nspname = '\(namespace)' AND t.tgname LIKE 'fetchkit_capture_%'")
        return Dictionary(
            uniqueKeysWithValues: rows.map { ($0["oid", as: Int64.self] ?? 0, $0["what", as: String.self] ?? "") })
    }

    /// Opening a store on a database whose triggers are installed with the same arguments changes nothing
    /// (no DROP/CREATE, so no lock on the tables); other arguments, a disabled or a replica-only trigger
    /// reinstall.
    @Test func reopeningLeavesInstalledTriggersAlone() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let url = try PostgresServer.url(searchPath: namespace)
        await (try await PostgresServer.isolatedStore(schema: Fixtures.schema, namespace: namespace)).close()
        let installed = try await Self.triggers(in: namespace)
        #expect(installed.count == 12, "\(installed)")
        await (try await PostgresStore.open(url: url, schema: Fixtures.schema, options: .init(readerCount: 1)))
            .close()
        #expect(try await Self.triggers(in: namespace) == installed)

        let limited = try await PostgresStore.open(
            url: url, schema: Fixtures.schema, options: .init(readerCount: 1, notificationRowLimit: 77))
        let reinstalled = try await Self.triggers(in: namespace)
        #expect(reinstalled.count == 12 && Set(reinstalled.keys).isDisjoint(with: installed.keys))
        #expect(reinstalled.values.allSatisfy { $0.contains("77") }, "\(reinstalled)")
        let collector = Collector(limited)
        try await limited.write { tx in
            _ = try tx.execute(
                "INSERT INTO category (id, name, position) SELECT g, 'c' || g, 0 FROM generate_series(1, 78) AS g",
                [])
        }
        #expect(try await collector.wait(for: 1).first?.tables["category"]?.isWholeTable == true)
        await limited.close()

        try await PostgresServer.administer("ALTER TABLE \(namespace).todo DISABLE TRIGGER fetchkit_capture_insert")
        let again = try await PostgresStore.open(
            url: url, schema: Fixtures.schema, options: .init(readerCount: 1, notificationRowLimit: 77))
        let afterDisabled = try await Self.triggers(in: namespace)
        let kept = Set(afterDisabled.keys).intersection(reinstalled.keys)
        #expect(kept.count == 8 && afterDisabled.count == 12, "only todo's triggers are created again")
        let changes = Collector(again)
        try await again.write { tx in _ = try tx.insert(Fixtures.TodoRecord(title: "captured again")) }
        #expect(try await changes.wait(for: 1).first?.tables["todo"] != nil)
        await again.close()

        // A trigger that fires only for replicas does not fire for the app's writes: reinstalled too.
        try await PostgresServer.administer(
            "ALTER TABLE \(namespace).note ENABLE REPLICA TRIGGER fetchkit_capture_delete")
        await
            (try await PostgresStore.open(
                url: url, schema: Fixtures.schema, options: .init(readerCount: 1, notificationRowLimit: 77)))
            .close()
        let afterReplica = try await Self.triggers(in: namespace)
        #expect(
            Set(afterReplica.keys).intersection(afterDisabled.keys).count == 8,
            "only note's triggers are created again"
        )
    }

    /// Thousands of long text keys in one statement are chunked under the 8000-byte payload limit and
    /// still arrive as one change.
    @Test func chunkedNotificationsFormOneChange() async throws {
        var options = PostgresStore.Options(readerCount: 1)
        options.notificationRowLimit = 10_000
        // Reading 3,000 chunks may take seconds on a loaded machine: no stall check (and its resync) meanwhile.
        options.listener.publishTimeout = .seconds(60)
        options.listener.pingTimeout = .seconds(60)
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        let collector = Collector(store)
        let slugs = (0..<3_000).map { "note-\($0)-" + String(repeating: "x", count: 40) }
        try await store.write { tx in
            for slug in slugs { try tx.insert(Fixtures.NoteRecord(slug: slug, body: "b")) }
        }
        try await store.write { tx in _ = try tx.execute("UPDATE note SET body = 'c'", []) }
        let changes = try await collector.wait(for: 2)
        #expect(changes.count == 2, "one change per transaction, not per notification: got \(changes.count)")
        let inserted = changes[0].tables["note"]?.inserted ?? []
        let updated = changes[1].tables["note"]?.updated ?? []
        #expect(
            inserted.count == 3_000 && inserted == Set(slugs.map { Value.text($0) }),
            "\(inserted.count) inserted keys")
        #expect(
            updated.count == 3_000 && updated == Set(slugs.map { Value.text($0) }), "\(updated.count) updated keys")
        await store.close()
    }

    /// A NOTIFY on FetchKit's channel that is not FetchKit's payload is logged and becomes a resync.
    @Test func garbageNotificationIsAResync() async throws {
        var options = PostgresStore.Options(readerCount: 1)
        options.channel = PostgresServer.uniqueName("chan")
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        let collector = Collector(store)
        try await PostgresServer.administer("NOTIFY \(options.channel), 'not json {'")
        let change = try #require(try await collector.wait(for: 1).first)
        #expect(change.isResync)
        #expect(store.listenerStatus == .listening)
        await store.close()
    }

    /// Terminating the listener's backend in the middle of a stream of writes by another client: it
    /// reconnects, listens again and publishes a resync, and a live controller still ends equal to the
    /// database — nothing committed during the gap is lost.
    @Test func terminatedListenerReconnectsAndResyncs() async throws {
        var options = PostgresStore.Options(readerCount: 1)
        options.listener.reconnectBackoff = .milliseconds(20)...(.milliseconds(200))
        options.listener.pingInterval = .milliseconds(200)
        options.channel = PostgresServer.uniqueName("chan")
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let collector = Collector(store)
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        let writer = try await PostgresServer.pool(name: "fkt-stream", searchPath: namespace)
        let pid = try #require(store.listener?.backendPID)
        let statuses = Task {
            var seen: [PostgresStore.ListenerStatus] = []
            for await status in store.listenerStatusUpdates() {
                seen.append(status)
                if seen.count > 2 && status == .listening { break }
            }
            return seen
        }
        let stream = Task {
            for id in 200..<260 {
                try await writer.run { connection in
                    _ = try connection.run(
                        "INSERT INTO todo (id, title, done, priority, category_id) VALUES (\(id), 'stream', false, "
                            + "1, 2)"
                    )
                }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        try await Task.sleep(for: .milliseconds(40))
        try await PostgresServer.administer("SELECT pg_terminate_backend(\(pid))")
        try await stream.value
        let deadline = ContinuousClock.now + .seconds(10)
        while store.listenerStatus != .listening && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.listenerStatus == .listening)
        #expect(store.listener?.backendPID != pid)
        #expect(collector.changes.contains { $0.isResync }, "the reconnection published a resync")
        let seen = await statuses.value
        #expect(seen.first == .listening && seen.last == .listening, "\(seen)")
        #expect(seen.contains { if case .reconnecting = $0 { return true } else { return false } }, "\(seen)")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.count == 70)
        try await store.write { tx in try tx.insert(Fixtures.TodoRecord(id: 1_000, title: "after")) }
        let flowing = ContinuousClock.now + .seconds(10)
        while !collector.changes.contains(where: { $0.tables["todo"]?.inserted == [.integer(1_000)] }),
            ContinuousClock.now < flowing
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(
            collector.changes.contains { $0.tables["todo"]?.inserted == [.integer(1_000)] },
            "changes flow after the reconnection")
        await writer.shutDown()
        await store.close()
    }
}
