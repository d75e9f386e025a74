import FetchKitBackendKit
import Foundation
import Logging
import Synchronization

#if Metrics
    import CoreMetrics
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one connection that `LISTEN`s on FetchKit's channel and turns notifications into ``StoreChange``s.
///
/// It runs on a thread of its own (``Loop``): a wait on the connection's socket (and on a pipe that
/// ``stop()`` writes to), then `PQconsumeInput` and `PQnotifies`; what to make of it — states, grouping,
/// pings, backoff, resyncs — is ``ListenerStateMachine``'s to decide (its pings and reconnections, as the logical
/// feed's, are its ``ConnectionSupervisor``'s). Notifications of one transaction (the same server
/// transaction ID, delivered together at commit) become one change: a ``PostgresStore`` write ends its
/// transaction with a marker that closes the change at once; another client's transaction is closed when a
/// notification of another transaction arrives or its burst ends (``PostgresStore/ListenerOptions/burstQuietPeriod``
/// without input). A payload it cannot parse is logged and
/// published as a resync, never a crash.
///
/// A broken connection is noticed by a failed read, by TCP keepalives, or by a ping (`SELECT 1`) after
/// ``Options/pingInterval`` of silence — or when a write's change is overdue — that goes unanswered for
/// ``Options/pingTimeout`` (a server process that is stopped or stuck); the listener then reconnects with exponential
/// backoff, issues `LISTEN` again and publishes a resync, so every live controller refetches whatever committed
/// during the gap. Its ``state`` says which of those it is doing.
final class PostgresListener: Sendable {
    /// What the listener is doing.
    enum State: Sendable, Equatable {
        /// Connected, `LISTEN` issued: changes flow.
        case listening
        /// A write's change is overdue: the listener is checking that its server process still answers.
        case stalled(reason: String)
        /// The connection broke; trying again (attempt 1, 2, …) after `lastError`.
        case reconnecting(attempt: Int, lastError: String)
        /// Stopped by ``stop()``.
        case stopped
    }

    let url: PostgresURL
    let channel: String
    /// The schema whose tables' notifications this listener keeps.
    let schemaName: String
    /// The tables whose primary key is `char(n)`: their keys arrive padded and are read without the padding,
    /// as fetches read them.
    let paddedKeyTables: Set<String>
    /// The followed foreign-key columns whose values the triggers report.
    let references: PostgresReferenceColumns
    let options: PostgresStore.ListenerOptions
    let feed: ChangeFeed
    let logger: Logger
    /// `fetchkit_listener_reconnects_total`: reconnections after the listener lost its connection.
    let reconnects: Counter
    /// The thread's wake pipe, stop and exit, and the state it reports.
    let thread: ChangeSourceThread
    let listeningPID = Mutex<Int32?>(nil)
    /// The server process of the connection the listener gave up, until the next connection terminates it.
    let abandonedPID = Mutex<Int32?>(nil)
    /// How many abandoned server processes a new connection terminated.
    let terminatedAbandoned = Atomic<Int>(0)
    /// Writes of the store waiting for their transaction's end marker.
    let completions = TransactionCompletions()

    private init(
        url: PostgresURL, channel: String, schemaName: String, paddedKeyTables: Set<String>,
        references: PostgresReferenceColumns, options: PostgresStore.ListenerOptions, feed: ChangeFeed, logger: Logger,
        thread: ChangeSourceThread, label: String
    ) {
        reconnects = MetricsMaker().counter("fetchkit_listener_reconnects_total", [("store", label)])
        self.url = url
        self.channel = channel
        self.schemaName = schemaName
        self.paddedKeyTables = paddedKeyTables
        self.references = references
        self.options = options
        self.feed = feed
        self.logger = logger
        self.thread = thread
    }

    /// Connects, issues `LISTEN` and starts the listening thread; the keys of `paddedKeyTables` (whose
    /// primary key is `char(n)`) are read without their trailing blanks, and the values of the `references`
    /// columns are reported by attribute.
    ///
    /// - Throws: the connection error when the first connection fails.
    static func start(
        url: PostgresURL, channel: String, schemaName: String, paddedKeyTables: Set<String> = [],
        references: PostgresReferenceColumns = .init(), options: PostgresStore.ListenerOptions, feed: ChangeFeed,
        logger: Logger, label: String = "postgresql"
    ) async throws -> PostgresListener {
        let listener = PostgresListener(
            url: url, channel: channel, schemaName: schemaName, paddedKeyTables: paddedKeyTables,
            references: references, options: options, feed: feed, logger: logger,
            thread: try ChangeSourceThread(initialState: .listening), label: label)
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            listener.thread.start(name: "fk.pg.listen") { Loop(listener, started: started).run() }
        }
        return listener
    }

    /// What the listener is doing now.
    var state: State { thread.state }

    /// The listener's state now, then every change of it, until it stops.
    func stateUpdates() -> AsyncStream<State> { thread.stateUpdates() }

    /// The server process of the listening connection (what `pg_terminate_backend` takes), while connected.
    var backendPID: Int32? { listeningPID.withLock { $0 } }

    /// Stops listening and waits for the thread to close its connection and end.
    func stop() async { await thread.stop() }

    /// Asks the listening thread to check at once that its server process answers (a write's change is
    /// overdue): it pings with ``PostgresStore/ListenerOptions/pingTimeout`` and reconnects — publishing a
    /// resync — when the ping goes unanswered.
    func checkConnection() { thread.wake() }
}

extension PostgresListener.State {
    /// What the state means for the store's live controllers (``FeedDelivery``), when it changes that: a
    /// reconnecting feed cannot deliver; a listening one delivers. A stalled one still may (its check decides).
    var delivery: FeedDelivery? {
        switch self {
        case .listening: .streaming
        case .reconnecting(let attempt, let lastError):
            .interrupted(
                .connectionLost("the change feed is reconnecting (attempt \(attempt)) after: \(lastError)"))
        case .stalled, .stopped: nil
        }
    }
}
