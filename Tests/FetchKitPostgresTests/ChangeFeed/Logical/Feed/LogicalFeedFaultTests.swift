import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// The logical feed's faults on a real server: its WAL sender terminated, its slot dropped from outside, a table
/// taken out of its publication, a table altered while live, a truncate and a 100,000-row transaction from
/// another client. Nothing is lost: every controller ends equal to a fresh fetch, with valid batches; a
/// persistent slot resumes without a resync.
@Suite("PostgreSQL logical feed faults", .requiresPostgreSQL)
struct LogicalFeedFaultTests {
    typealias Collector = PostgresChangeCaptureTests.Collector

    static func options(slot: String? = nil) -> PostgresStore.Options {
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = .logical
        options.replicationSlot = slot
        options.listener.reconnectBackoff = .milliseconds(20)...(.milliseconds(500))
        return options
    }

    /// A store of the fixtures' schema in a namespace of its own, with the sample data and a live controller.
    static func live(
        _ options: PostgresStore.Options
    ) async throws -> (PostgresStore, String, ResultsController<Row>, ResultsRecorder<Row>) {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        return (store, namespace, controller, recorder)
    }

    /// Runs `sql` as another client would (a bare connection), in `namespace`.
    static func outside(_ namespace: String, _ sql: String) async throws {
        let other = try await PostgresServer.pool(name: "fkt-psql", searchPath: namespace)
        do {
            try await other.run { connection in _ = try connection.run(sql) }
        } catch {
            await other.shutDown()
            throw error
        }
        await other.shutDown()
    }

    /// Waits (up to 30 s: a loaded machine) until the feed streams again from a WAL sender other than `old`.
    static func awaitReconnection(_ store: PostgresStore, from old: Int32) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if store.listenerStatus == .listening, let pid = store.logicalFeed?.backendPID, pid != old { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the feed did not reconnect within 30 s: \(store.listenerStatus)")
    }

    static func slotName() -> String { PostgresServer.uniqueName("fkt_slot") }

    @Test func aTerminatedWalSenderReconnectsAndResyncs() async throws {
        let (store, namespace, controller, recorder) = try await Self.live(Self.options())
        let collector = Collector(store)
        let pid = try #require(store.logicalFeed?.backendPID)
        _ = try await PostgresServer.query("SELECT pg_terminate_backend(\(pid))")
        try await Self.outside(
            namespace, "INSERT INTO todo (id, title, done, priority) VALUES (50, 'gap', false, 1)")
        try await Self.awaitReconnection(store, from: pid)
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["id"] == .integer(50) })
        #expect(collector.changes.contains { $0.isResync })
        await store.close()
    }

    /// A write made while the feed reconnects returns at once (the resync that follows covers it), not after the
    /// publish timeout.
    @Test func aWriteWhileTheFeedReconnectsReturnsAtOnce() async throws {
        var options = Self.options()
        options.listener.reconnectBackoff = .seconds(2)...(.seconds(2))
        options.listener.publishTimeout = .seconds(30)
        let (store, _, controller, recorder) = try await Self.live(options)
        let pid = try #require(store.logicalFeed?.backendPID)
        _ = try await PostgresServer.query("SELECT pg_terminate_backend(\(pid))")
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if case .reconnecting = store.listenerStatus { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let started = ContinuousClock.now
        try await store.write { tx in try tx.insert(Fixtures.TodoRecord(id: 90, title: "while away", categoryID: 1))
        }
        #expect(ContinuousClock.now - started < .seconds(10), "the write waited for the feed")
        try await Self.awaitReconnection(store, from: pid)
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["id"] == .integer(90) })
        await store.close()
    }

    @Test func aPersistentSlotResumesWithoutAResyncAndOutlivesItsStore() async throws {
        let slot = Self.slotName()
        let (store, namespace, controller, recorder) = try await Self.live(Self.options(slot: slot))
        #expect(store.logicalFeed?.slotName == slot)
        let collector = Collector(store)
        let pid = try #require(store.logicalFeed?.backendPID)
        _ = try await PostgresServer.query("SELECT pg_terminate_backend(\(pid))")
        try await Self.outside(
            namespace,
            "INSERT INTO todo (id, title, done, priority) VALUES (60, 'while away', false, 1); "
                + "UPDATE todo SET title = 'renamed while away' WHERE id = 1")
        try await Self.awaitReconnection(store, from: pid)
        let changes = try await collector.wait(for: 1)
        #expect(!changes.contains { $0.isResync }, "a resumed slot needs no resync: \(changes)")
        #expect(changes.contains { $0.tables["todo"]?.inserted.contains(.integer(60)) == true })
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        let status = try #require(try await store.replicationSlot())
        #expect(status.name == slot && !status.isTemporary && status.activeProcess != nil)
        await store.close()
        // The slot outlives its store (a process restart resumes from it), until dropped.
        let url = try PostgresServer.url()
        #expect(try await PostgresStore.replicationSlots(url: url).contains { $0.name == slot && !$0.isTemporary })
        try await PostgresStore.dropReplicationSlot(slot, url: url)
        #expect(try await PostgresStore.replicationSlots(url: url).allSatisfy { $0.name != slot })
    }

    @Test func aSlotDroppedFromOutsideIsMadeAgainWithAResync() async throws {
        let slot = Self.slotName()
        var options = Self.options(slot: slot)
        options.listener.reconnectBackoff = .milliseconds(300)...(.milliseconds(600))
        let (store, namespace, controller, recorder) = try await Self.live(options)
        let collector = Collector(store)
        let pid = try #require(store.logicalFeed?.backendPID)
        // Terminate its WAL sender, then drop the slot as soon as it is free.
        try await PostgresServer.administer(
            "SELECT pg_terminate_backend(\(pid)); "
                + "DO $$ BEGIN FOR i IN 1..200 LOOP BEGIN PERFORM pg_drop_replication_slot('\(slot)'); RETURN; "
                + "EXCEPTION WHEN object_in_use THEN PERFORM pg_sleep(0.005); END; END LOOP; END $$")
        try await Self.outside(namespace, "DELETE FROM todo WHERE id = 2")
        try await Self.awaitReconnection(store, from: pid)
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(collector.changes.contains { $0.isResync })
        #expect(try await PostgresStore.replicationSlots(url: PostgresServer.url()).contains { $0.name == slot })
        await store.close()
        try await PostgresStore.dropReplicationSlot(slot, url: PostgresServer.url())
    }

    @Test func aTableTakenOutOfThePublicationIsPutBackWithAResync() async throws {
        var options = Self.options()
        options.listener.publicationCheckInterval = .milliseconds(100)
        let (store, namespace, controller, recorder) = try await Self.live(options)
        let publication = try #require(store.logicalFeed?.settings.publication)
        let collector = Collector(store)
        try await Self.outside(namespace, "ALTER PUBLICATION \"\(publication)\" DROP TABLE \(namespace).todo")
        try await Self.outside(
            namespace, "INSERT INTO todo (id, title, done, priority) VALUES (70, 'unseen', false, 1)")
        let deadline = ContinuousClock.now + .seconds(10)
        while !collector.changes.contains(where: { $0.isResync }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(collector.changes.contains { $0.isResync })
        let tables = try await PostgresServer.query(
            "SELECT tablename::text AS t FROM pg_publication_tables WHERE pubname = '\(publication)'")
        #expect(Set(tables.compactMap { $0["t", as: String.self] }) == ["todo", "category", "note"])
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["id"] == .integer(70) })
        await store.close()
    }

    /// A column added while live: the log's rows carry it, the store reads the columns it knows.
    @Test func aTableAlteredWhileLiveIsFollowed() async throws {
        let (store, namespace, controller, recorder) = try await Self.live(Self.options())
        try await Self.outside(namespace, "ALTER TABLE todo ADD COLUMN extra integer DEFAULT 7")
        try await Self.outside(
            namespace,
            "INSERT INTO todo (id, title, done, priority, extra) VALUES (80, 'wider', false, 1, 8); "
                + "UPDATE todo SET title = 'after alter' WHERE id = 1")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["title"] == .text("after alter") })
        await store.close()
    }

    @Test func truncateAndAHundredThousandRowTransactionAreFollowed() async throws {
        let (store, namespace, controller, recorder) = try await Self.live(Self.options())
        let collector = Collector(store)
        try await Self.outside(
            namespace,
            "INSERT INTO todo (id, title, done, priority, category_id) SELECT g, 't' || g, false, 1, 1 + g % 3 "
                + "FROM generate_series(1000, 100999) AS g")
        // Decoding 100,000 rows from the log shares two cores with the rest of the suite in CI: up to a minute.
        let big = try #require(try await collector.wait(for: 1, within: .seconds(60)).first)
        // Every key, without rows (past the image limit): the router re-reads them in chunks.
        #expect(big.tables["todo"]?.inserted.count == 100_000)
        #expect(big.tables["todo"]?.images.isEmpty == true)
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store, within: .seconds(90))
        #expect(controller.fetchedObjects.count == 100_010)
        try await Self.outside(namespace, "TRUNCATE todo")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store, within: .seconds(90))
        #expect(controller.fetchedObjects.isEmpty)
        await store.close()
    }
}
