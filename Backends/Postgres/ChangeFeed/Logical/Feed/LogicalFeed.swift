import FetchKitBackendKit
import Logging
import Synchronization

#if Metrics
    import CoreMetrics
#endif

/// The change source that reads PostgreSQL's write-ahead log through logical replication: the writers pay
/// nothing at commit, and every committed transaction of the store's tables arrives once, in commit order, with
/// the rows it wrote.
///
/// It runs on a thread of its own (``Loop``) holding one replication connection (`replication=database`): it
/// makes sure the publication names exactly the store's tables, creates or resumes its slot, sends
/// `START_REPLICATION`, then reads the stream with `PQgetCopyData` and acknowledges what it has handed on with
/// standby status updates. What to make of the stream — transactions, acknowledgements, pings, reconnections,
/// resyncs — is ``LogicalFeedStateMachine``'s to decide (its pings and reconnections, as the trigger feed's, are
/// its ``ConnectionSupervisor``'s).
final class LogicalFeed: Sendable {
    /// Which slot the feed streams from.
    enum Slot: Sendable, Equatable {
        /// A temporary slot per connection, named from this prefix: gone with its connection, so a reconnection
        /// resyncs.
        case temporary(prefix: String)
        /// A persistent slot of this name: it resumes from its confirmed position after a reconnection, a
        /// restart of the process or of the server.
        case persistent(String)
    }

    /// Where and what the feed streams.
    struct Settings: Sendable {
        /// The server, with a connection that reaches one server process (not a transaction-mode pooler).
        var url: PostgresURL
        var publication: String
        var slot: Slot
        /// The schema (namespace) of the store's tables.
        var schemaName: String
        /// The store's tables and their primary-key columns.
        var keyColumns: [String: String]
        /// The tables whose primary key is `char(n)`: their keys are read without the padding, as fetches read
        /// them.
        var paddedKeyTables: Set<String>
        /// The followed foreign-key columns whose values the feed reports (from the old row image where the table's
        /// replica identity logs it: `REPLICA IDENTITY FULL`).
        var references: PostgresReferenceColumns
        var images: LogImageMaker
    }

    let settings: Settings
    let options: PostgresStore.ListenerOptions
    let feed: ChangeFeed
    let logger: Logger
    /// The thread's wake pipe, stop and exit, and the state it reports.
    let thread: ChangeSourceThread
    /// Writes of the store waiting until their transaction is published.
    let completions = TransactionCompletions()
    /// The published transactions the store's reads wait to see.
    let visibility = VisibilityGate()
    /// `fetchkit_logical_feed_reconnects_total`: reconnections after the feed lost its connection.
    let reconnects: Counter
    /// `fetchkit_replication_slot_retained_bytes`: the write-ahead log the feed's slot keeps on the server, measured
    /// at each publication check.
    let retainedLog: Gauge
    /// `fetchkit_replication_lag_bytes`: how much of the server's log the feed has not received, read at each lag
    /// check (``PostgresStore/ListenerOptions/lagCheckInterval``).
    let lagBytes: Gauge
    /// `fetchkit_replication_lag_seconds`: since when the feed has not received what the server logged (0 when it
    /// has received everything it was told of), read at each lag check.
    let lagSeconds: Gauge
    /// The server process streaming to the feed (the WAL sender), while connected.
    let streamingPID = Mutex<Int32?>(nil)
    /// The WAL sender of the connection the feed gave up, until the next connection has dealt with it.
    let abandonedPID = Mutex<Int32?>(nil)
    /// The slot being streamed from, while connected.
    let currentSlot = Mutex<String?>(nil)
    private let temporaryCount = Atomic<Int>(0)

    private init(
        settings: Settings, options: PostgresStore.ListenerOptions, feed: ChangeFeed, logger: Logger,
        thread: ChangeSourceThread, label: String
    ) {
        self.settings = settings
        self.options = options
        self.feed = feed
        self.logger = logger
        self.thread = thread
        let maker = MetricsMaker()
        let dimensions = [("store", label)]
        reconnects = maker.counter("fetchkit_logical_feed_reconnects_total", dimensions)
        retainedLog = maker.gauge("fetchkit_replication_slot_retained_bytes", dimensions)
        lagBytes = maker.gauge("fetchkit_replication_lag_bytes", dimensions)
        lagSeconds = maker.gauge("fetchkit_replication_lag_seconds", dimensions)
    }

    /// Connects, starts streaming and starts the feed's thread.
    ///
    /// - Throws: the first connection's error (``LogicalFeedError`` reads it: a role without `REPLICATION`,
    ///   `wal_level` not `logical`, no free slot, …).
    static func start(
        settings: Settings, options: PostgresStore.ListenerOptions, feed: ChangeFeed, logger: Logger,
        label: String = "postgresql"
    ) async throws -> LogicalFeed {
        let source = LogicalFeed(
            settings: settings, options: options, feed: feed, logger: logger,
            thread: try ChangeSourceThread(initialState: .listening), label: label)
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            source.thread.start(name: "fk.pg.wal") { Loop(source, started: started).run() }
        }
        return source
    }

    /// What the feed is doing now.
    var state: PostgresListener.State { thread.state }

    /// The feed's state now, then every change of it, until it stops.
    func stateUpdates() -> AsyncStream<PostgresListener.State> { thread.stateUpdates() }

    /// The WAL sender streaming to the feed (what `pg_terminate_backend` takes), while connected.
    var backendPID: Int32? { streamingPID.withLock { $0 } }

    /// The slot the feed streams from, while connected.
    var slotName: String? { currentSlot.withLock { $0 } }

    /// Stops streaming and waits for the thread to close its connection and end (a temporary slot goes with it).
    func stop() async { await thread.stop() }

    /// Asks the thread to check at once that the server answers (a write's change is overdue): it sends a
    /// status update asking for a reply, and reconnects when none comes within
    /// ``PostgresStore/ListenerOptions/pingTimeout``.
    func checkConnection() { thread.wake() }

    /// The next temporary slot's name: the prefix, then a number no earlier connection of this feed used.
    func nextTemporarySlot(prefix: String) -> String {
        "\(prefix)_\(temporaryCount.add(1, ordering: .relaxed).newValue)"
    }
}
