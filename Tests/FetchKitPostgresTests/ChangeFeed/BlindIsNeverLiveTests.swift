import FetchKit
import FetchKitBackendKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitPostgres

/// A feed that cannot deliver is never `.live`, on a real server: the WAL sender terminated while another session
/// holds a transaction open (the new slot waits for it), a table taken out of the publication, the server restarted.
/// Each fault takes the controller out of `.live` within its bound, keeps it out while the feed is blind, and
/// brings it back only once the resync is applied (the row written while blind is in its results); nothing is lost.
@Suite("PostgreSQL: blind is never live", .requiresPostgreSQL)
struct BlindIsNeverLiveTests {
    /// Watches a controller's status every few milliseconds, from the instant a fault starts, on a thread of its
    /// own: a whole test suite keeps the cooperative pool busy, and a task sampling there would see a change late.
    final class StatusWatch: Sendable {
        struct Sample {
            var at: ContinuousClock.Instant
            var status: ResultsStatus
            /// Whether the controller's results held the watched row then.
            var holdsRow: Bool
            /// Whether the store's feed was listening, read right after the status.
            var listening: Bool
        }

        private let samples = Mutex<[Sample]>([])
        private let stopped = Atomic(false)

        /// Starts sampling `controller` of `store`, noting whether it holds the row whose key is `key`.
        init(_ controller: ResultsController<Row>, of store: PostgresStore, key: Value) {
            let thread = Thread { [self] in
                while !self.stopped.load(ordering: .relaxed) {
                    let status = controller.status
                    let listening = store.listenerStatus == .listening
                    let holds = controller.rowPath(forKey: key) != nil
                    let sample = Sample(at: .now, status: status, holdsRow: holds, listening: listening)
                    self.samples.withLock { $0.append(sample) }
                    usleep(2_000)
                }
            }
            thread.start()
        }

        func stop() {
            stopped.store(true, ordering: .relaxed)
        }

        /// The first sample after `start` that says the feed cannot deliver (`.resyncing`): not `.catchingUp`,
        /// which a loaded machine may show at any time.
        func firstBlind(after start: ContinuousClock.Instant) -> Sample? {
            samples.withLock { $0.first { $0.at >= start && $0.status.isResyncing } }
        }

        /// The first `.live` sample after the first that said the feed cannot deliver.
        func firstLiveAgain(after start: ContinuousClock.Instant) -> Sample? {
            samples.withLock { samples in
                guard let left = samples.firstIndex(where: { $0.at >= start && $0.status.isResyncing }) else {
                    return nil
                }
                return samples[left...].first { $0.status == .live }
            }
        }

        /// The `.live` samples between two instants.
        func live(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> [Sample] {
            samples.withLock { $0.filter { $0.at >= start && $0.at <= end && $0.status == .live } }
        }
    }

    /// Waits (up to `timeout`) until `condition` holds.
    static func wait(
        _ what: String, within timeout: Duration = .seconds(30), until condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(what) did not happen within \(timeout)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Checks what `watch` saw of a fault that started at `start`: not live within `bound`, live again only while
    /// the feed listens and — when `rowWrittenWhileBlind` — with the watched row (written while blind) applied.
    static func expectBlindNeverLive(
        _ watch: StatusWatch, faultAt start: ContinuousClock.Instant,
        committedAt committed: ContinuousClock.Instant? = nil,
        detectedWithin bound: Duration, rowWrittenWhileBlind: Bool = true, _ fault: String
    ) throws {
        let left = try #require(watch.firstBlind(after: start), "\(fault): the controller never read .resyncing")
        // Measured from when the fault took effect: a statement's commit, not the connection that sent it.
        let took = left.at - max(start, min(committed ?? start, left.at))
        #expect(took <= bound, "\(fault): left .live after \(took) (bound \(bound))")
        let back = try #require(watch.firstLiveAgain(after: start), "\(fault): the controller never became live again")
        #expect(back.listening, "\(fault): live again while the feed was not listening")
        if rowWrittenWhileBlind {
            #expect(back.holdsRow, "\(fault): live again before the resync brought the row written while blind")
        }
    }

    @Test func aWalSenderTerminatedWhileATransactionIsHeldOpen() async throws {
        // A server of its own: the held transaction blocks every temporary slot's creation on its server.
        let server = try await PrivateServer.onThread { try PrivateServer() }
        defer { server.stop() }
        let store = try await PostgresStore.open(
            url: server.url, schema: Fixtures.schema, options: LogicalFeedFaultTests.options())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        let watch = StatusWatch(controller, of: store, key: 51)
        defer { watch.stop() }
        let url = try PostgresURL(server.url)
        let holder = try await ConnectionPool<PostgresConnection>.start(name: "fkt-hold", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        let admin = try await ConnectionPool<PostgresConnection>.start(name: "fkt-admin", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        // Another session's open transaction with an ID: a new slot cannot be made until it ends.
        try await holder.run { connection in
            _ = try connection.run(
                "BEGIN; INSERT INTO todo (id, title, done, priority) VALUES (51, 'held', false, 1)")
        }
        let pid = try #require(store.logicalFeed?.backendPID)
        let start = ContinuousClock.now
        try await admin.run { connection in _ = try connection.run("SELECT pg_terminate_backend(\(pid))") }
        await admin.shutDown()
        // Blind while the transaction is held: never live.
        try await Task.sleep(for: .seconds(2))
        #expect(
            watch.live(from: start + .seconds(1), to: .now).isEmpty, "live while the feed waited for its slot")
        #expect(store.listenerStatus != .listening, "the feed streamed while a transaction blocked its slot")
        try await holder.run { connection in _ = try connection.run("COMMIT") }
        await holder.shutDown()
        try await Self.wait("the controller's return to .live") { watch.firstLiveAgain(after: start) != nil }
        try Self.expectBlindNeverLive(watch, faultAt: start, detectedWithin: .seconds(1), "WAL sender terminated")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        await store.close()
    }

    @Test func aTableTakenOutOfThePublicationIsFoundWithinTwoSeconds() async throws {
        // The default check interval.
        let (store, namespace, controller, recorder) = try await LogicalFeedFaultTests.live(
            LogicalFeedFaultTests.options())
        let publication = try #require(store.logicalFeed?.settings.publication)
        let watch = StatusWatch(controller, of: store, key: 70)
        defer { watch.stop() }
        let start = ContinuousClock.now
        // One transaction: the row is written while the table is out of the publication, whenever the check runs.
        try await LogicalFeedFaultTests.outside(
            namespace,
            "ALTER PUBLICATION \"\(publication)\" DROP TABLE \(namespace).todo; "
                + "INSERT INTO todo (id, title, done, priority) VALUES (70, 'unseen', false, 1)")
        let committed = ContinuousClock.now
        try await Self.wait("the controller's return to .live") { watch.firstLiveAgain(after: start) != nil }
        try Self.expectBlindNeverLive(
            watch, faultAt: start, committedAt: committed, detectedWithin: .seconds(2),
            "a table taken out of the publication")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        await store.close()
    }

    @Test(arguments: [PostgresStore.ChangeFeedKind.triggers, .logical])
    func aServerRestart(feed: PostgresStore.ChangeFeedKind) async throws {
        let server = try await PrivateServer.onThread { try PrivateServer() }
        defer { server.stop() }
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = feed
        options.listener.reconnectBackoff = .milliseconds(20)...(.milliseconds(500))
        let store = try await PostgresStore.open(url: server.url, schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        let watch = StatusWatch(controller, of: store, key: 80)
        defer { watch.stop() }
        let start = ContinuousClock.now
        try await PrivateServer.onThread { try server.restart() }
        // Written once the server is back, maybe before the feed reconnected: the row reaches the controller.
        _ = try await PostgresRestartTests.retrying {
            try await store.write { tx in try tx.insert(Fixtures.TodoRecord(id: 80, title: "after", categoryID: 1)) }
        }
        try await Self.wait("the controller's return to .live") { watch.firstLiveAgain(after: start) != nil }
        try Self.expectBlindNeverLive(
            watch, faultAt: start, detectedWithin: .seconds(1), rowWrittenWhileBlind: false,
            "server restart (\(feed))")
        try await PostgresRestartTests.retrying {
            try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        }
        await store.close()
    }
}

extension ResultsStatus {
    fileprivate var isResyncing: Bool {
        if case .resyncing = self { true } else { false }
    }
}
