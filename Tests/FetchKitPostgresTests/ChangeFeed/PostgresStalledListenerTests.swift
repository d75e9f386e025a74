import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listener whose server process is stopped (`SIGSTOP`): its TCP connection looks healthy — the kernel
/// answers keepalives — but no notification arrives. Writes must not wait for it, the status must say so,
/// and the listener must reconnect and resync so that live controllers converge.
@Suite("PostgreSQL stalled listener", .requiresPostgreSQL)
struct PostgresStalledListenerTests {
    static func options() -> PostgresStore.Options {
        var options = PostgresStore.Options(readerCount: 2)
        options.listener.publishTimeout = .milliseconds(300)
        options.listener.pingTimeout = .milliseconds(300)
        options.listener.reconnectBackoff = .milliseconds(20)...(.milliseconds(200))
        return options
    }

    /// Every status the store's listener reports from now on.
    final class StatusLog: Sendable {
        private final class Seen: Sendable {
            let statuses = Mutex<[PostgresStore.ListenerStatus]>([])
        }

        private let seen = Seen()
        let task: Task<Void, Never>

        init(_ store: PostgresStore) {
            let updates = store.listenerStatusUpdates()
            let seen = self.seen
            task = Task { for await status in updates { seen.statuses.withLock { $0.append(status) } } }
        }

        var statuses: [PostgresStore.ListenerStatus] { seen.statuses.withLock { $0 } }

        func contains(_ matches: (PostgresStore.ListenerStatus) -> Bool) -> Bool {
            statuses.contains(where: matches)
        }

        /// Whether a status matching `matches` arrives within `timeout`: the statuses reach the log through
        /// tasks that a loaded machine may run late.
        func eventuallyContains(
            within timeout: Duration = .seconds(10), _ matches: (PostgresStore.ListenerStatus) -> Bool
        ) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            while !contains(matches), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            return contains(matches)
        }
    }

    /// Stops the server process `pid` until the returned closure is called (called again on a second stop).
    static func stop(_ pid: Int32) throws -> @Sendable () -> Void {
        try #require(kill(pid, SIGSTOP) == 0, "could not stop the listener's server process (errno \(errno))")
        return { _ = kill(pid, SIGCONT) }
    }

    /// Seeds `store`, follows it with a live controller, starts a status log, then stops the listener's
    /// server process: what each test starts from (the returned closure resumes the process).
    static func stopListener(of store: PostgresStore) async throws -> (
        controller: ResultsController<Row>, recorder: ResultsRecorder<Row>, log: StatusLog, pid: Int32,
        resume: @Sendable () -> Void
    ) {
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        let log = StatusLog(store)
        let pid = try #require(store.listener?.backendPID)
        return (controller, recorder, log, pid, try stop(pid))
    }

    static func waitUntilListening(_ store: PostgresStore, replacing pid: Int32) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if store.listenerStatus == .listening, let current = store.listener?.backendPID, current != pid {
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the listener did not reconnect within 10 s: \(store.listenerStatus)")
    }

    @Test func aWriteReturnsPromptlyWhileTheListenersServerProcessIsStopped() async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: Self.options())
        let (controller, recorder, log, pid, resume) = try await Self.stopListener(of: store)
        defer { resume() }
        // Were the write to wait for the stopped process, the process resumes after 60 s and the time check fails
        // (rather than the test hanging).
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(60))
            resume()
        }
        defer { watchdog.cancel() }

        let started = ContinuousClock.now
        try await store.write { tx in
            try tx.insert(Fixtures.TodoRecord(id: 40, title: "while stopped", categoryID: 2))
        }
        let waited = ContinuousClock.now - started
        // publishTimeout + pingTimeout + one reconnection (under a second), with room for a loaded machine — a
        // full run's first minute keeps the pool busy (5.8 s seen once) — and far below a stall that lasts as
        // long as the process stays stopped (60 s).
        #expect(waited < .seconds(30), "the write waited \(waited)")
        // The listener leaves `listening`: the write's wait marks it stalled — unless its own ping found the
        // stopped process first (a loaded machine runs the write late), and it is already reconnecting.
        #expect(
            try await log.eventuallyContains { status in
                switch status {
                case .stalled, .reconnecting: true
                default: false
                }
            }, "\(log.statuses)")

        try await Self.waitUntilListening(store, replacing: pid)
        // The new connection terminated the abandoned one (it dies once resumed): its unread notifications would
        // otherwise keep the server's NOTIFY queue from draining.
        #expect(store.listener?.terminatedAbandoned.load(ordering: .relaxed) == 1)
        // The resync brings the controller up to date, while the old server process is still stopped.
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["id"] == .integer(40) })
        // Later writes go through the new connection: their change arrives within the publish timeout, so
        // the listener reports no new stall. The timeout is 0.3 s here, which a loaded machine (a full run's
        // suites in parallel) can exceed once: of three writes, one must pass without a stall — a listener
        // still held by the stopped process would stall on every one.
        func stalls() -> Int { log.statuses.filter { if case .stalled = $0 { true } else { false } }.count }
        var unstalled = false
        for attempt in 1...3 where !unstalled {
            let stallsBefore = stalls()
            try await store.write { tx in
                _ = try tx.update("Todo", key: 40, set: ["title": .text("after the stall \(attempt)")])
            }
            await controller.sync()
            unstalled = stalls() == stallsBefore
        }
        #expect(unstalled, "\(log.statuses)")
        try await Self.waitUntilListening(store, replacing: pid)
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        resume()
        log.task.cancel()
        await store.close()
    }

    @Test func anUnansweredPingWithoutWritesReconnectsAndResyncs() async throws {
        var options = Self.options()
        options.listener.pingInterval = .milliseconds(200)
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        let (controller, recorder, log, pid, resume) = try await Self.stopListener(of: store)
        defer { resume() }
        // Another client writes while the listener is stopped: only a resync can bring it in.
        try await PostgresServer.administer("UPDATE \(namespace).todo SET title = 'from psql' WHERE id = 3")
        try await Self.waitUntilListening(store, replacing: pid)
        #expect(
            try await log.eventuallyContains { status in
                if case .reconnecting(_, let error) = status {
                    error.contains("did not answer a ping")
                } else {
                    false
                }
            }, "\(log.statuses)")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        resume()
        log.task.cancel()
        await store.close()
    }
}
