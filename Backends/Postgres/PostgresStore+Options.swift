import FetchKitBackendKit
import Logging

extension PostgresStore {
    /// What a store does with the schema's tables when it opens.
    public typealias SchemaPolicy = FetchKit.SchemaPolicy

    /// How a store opens and runs its connections.
    ///
    /// ```swift
    /// var options = PostgresStore.Options()
    /// options.readerCount = 8
    /// let store = try await PostgresStore.open(url: "postgresql://app@db/tasks", schema: schema, options: options)
    /// ```
    public struct Options: Sendable {
        /// How many connections (each on its own thread) serve fetches; the writer is one more.
        public var readerCount: Int
        /// Where the store and its live controllers log (see ``PersistentStore/logger``); by default the logger of
        /// the task that makes the options (`Logger.current`), ``silentLogger`` for none.
        public var logger: Logger
        /// The store's name in its metrics (their `store` dimension): set one per store when an app opens several
        /// (`"orders"`, `"sessions"`). Defaults to `postgresql`.
        public var label = "postgresql"
        /// Whether missing tables are created.
        public var schemaPolicy: SchemaPolicy
        /// Whether the store captures changes, with the feed ``changeFeed`` picks: FetchKit's triggers on the
        /// schema's tables and a listener for their notifications, or the write-ahead log. Without it,
        /// ``PostgresStore/changes()`` publishes nothing.
        public var changeCapture: Bool
        /// The `LISTEN` channel the triggers notify on.
        public var channel: String
        /// Above this many rows, a statement notifies a table-level hint instead of its keys (controllers
        /// then refetch instead of re-reading the keys); default 10,000. Below it, the keys go out in
        /// notifications of at most 7,000 bytes each (about 1,000 integer keys), queued at commit.
        public var notificationRowLimit: Int
        /// How the change listener keeps its connection alive and reconnects.
        public var listener: ListenerOptions
        /// Which feed captures changes (with ``changeCapture``): triggers, logical replication, or the latter
        /// where the server allows it. See ``ChangeFeedKind``.
        public var changeFeed: ChangeFeedKind
        /// The logical feed's slot: `nil` (the default) for a temporary slot per connection, dropped with it, so
        /// a reconnection resyncs; a name for a persistent slot that resumes where it was after a reconnection
        /// or a restart, missing nothing and resyncing nothing. One name per running store: a persistent slot
        /// keeps the server's WAL until the store reads it (set `max_slot_wal_keep_size`).
        public var replicationSlot: String?
        /// The logical feed's publication: `nil` (the default) for a name made from the schema's namespace and
        /// tables, shared by every instance of the app.
        public var publication: String?
        /// A hot standby of the database to read from: fetches, counts and the live controllers' reads run on
        /// its connections, the writes and the change feed on the primary's (`nil`, the default: every read on
        /// the primary). Each read first waits until the standby has replayed the log past every commit the
        /// feed published (`pg_last_wal_replay_lsn()`), so no read shows a state older than what the store's
        /// controllers already hold. Needs the logical feed, which knows where each commit ends in the log.
        ///
        /// ```swift
        /// var options = PostgresStore.Options(changeFeed: .logical)
        /// options.readReplica = try PostgresURL("postgresql://app@standby/tasks")
        /// ```
        public var readReplica: PostgresURL?
        /// How long a read waits for a standby that is behind (``readReplica``) before it fails with a transient
        /// ``FetchKitError/Code/busy`` (a live controller retries); default 10 s.
        public var replicaWaitLimit: Duration = .seconds(10)

        /// Creates options; the defaults are 4 readers, the task's logger, ``SchemaPolicy/createMissing``,
        /// change capture by triggers on channel `fetchkit` with a 10,000-row limit, and the default listener
        /// options.
        public init(
            readerCount: Int = 4, logger: Logger = .current, schemaPolicy: SchemaPolicy = .createMissing,
            changeCapture: Bool = true, channel: String = "fetchkit",
            notificationRowLimit: Int = Options.defaultNotificationRowLimit,
            listener: ListenerOptions = .init(), changeFeed: ChangeFeedKind = .triggers,
            replicationSlot: String? = nil, publication: String? = nil
        ) {
            self.changeFeed = changeFeed
            self.replicationSlot = replicationSlot
            self.publication = publication
            self.readerCount = readerCount
            self.logger = logger
            self.schemaPolicy = schemaPolicy
            self.changeCapture = changeCapture
            self.channel = channel
            self.notificationRowLimit = notificationRowLimit
            self.listener = listener
        }

        /// ``notificationRowLimit``'s default, which `fetchkit capture` and `capture-sql` use too: 10,000 rows.
        public static let defaultNotificationRowLimit = 10_000

        /// A logger that discards everything (label `fetchkit.postgres`).
        public static var silentLogger: Logger {
            Logger(label: "fetchkit.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        }
    }
}

extension PostgresStore {
    /// How the change listener keeps its connection alive and reconnects.
    public struct ListenerOptions: Sendable {
        /// The server the listener connects to, when not the store's URL (`nil`: the store's). `LISTEN` needs
        /// one server process for the whole session: when the store's URL goes through a transaction-mode
        /// pooler (PgBouncer's `pool_mode = transaction`, …), point this at a direct connection.
        public var url: PostgresURL?
        /// After this long without a notification the listener pings the server (`SELECT 1`), which
        /// exposes a half-open connection.
        public var pingInterval: Duration
        /// How long the listener waits for a ping's answer before it gives the connection up and opens a new
        /// one (publishing a resync): a server process that is stopped or stuck answers nothing, while TCP
        /// keepalives, answered by the kernel, see nothing wrong.
        public var pingTimeout: Duration
        /// How long a write waits for the listener to publish its change before it asks the listener to check
        /// its connection (a ping with ``pingTimeout``). A write therefore returns within about
        /// `publishTimeout + pingTimeout` even when the listener's server process is stopped; see
        /// ``PostgresStore/write(_:)`` for what its return then guarantees.
        public var publishTimeout: Duration
        /// The wait before the first reconnection attempt, doubling up to the upper bound.
        public var reconnectBackoff: ClosedRange<Duration>
        /// TCP keepalives — of the listener and of the store's readers and writer too, unless the URL sets
        /// its own `keepalives…` parameters: idle time before the first probe (whole seconds).
        public var keepaliveIdle: Duration
        /// TCP keepalives: time between probes (whole seconds).
        public var keepaliveInterval: Duration
        /// TCP keepalives: unanswered probes before the connection counts as broken.
        public var keepaliveCount: Int
        /// How long the listener waits, after the last notification of a transaction that another client
        /// committed (it sends no end marker), before it publishes that transaction's change.
        public var burstQuietPeriod: Duration
        /// How often the logical feed checks that its publication still names exactly the store's tables: a
        /// table someone removed from it would go silent, so the feed puts it back and publishes a resync (its
        /// controllers are not live from the check that finds it until they applied that resync).
        public var publicationCheckInterval: Duration
        /// How often the feed checks how far behind the server it is: the logical feed compares the position it
        /// has received with the end of the server's log (flushed or not), the trigger feed sends a probe through
        /// the notification queue. While it is behind, every live controller counts its lag from then
        /// (``FeedDelivery/lagging(since:)``), so a log or a queue the server has not delivered never reads `.live`.
        public var lagCheckInterval: Duration

        /// Creates listener options; the defaults ping after 5 s of silence and wait 2 s for the answer, check
        /// the connection when a write's change is 2 s overdue, back off from 50 ms to 5 s, probe after 5 s idle
        /// every 2 s, 3 times, close another client's transaction after 250 µs without input, and check the logical
        /// feed's publication every second and how far behind the server it is ten times a second.
        public init(
            pingInterval: Duration = .seconds(5), pingTimeout: Duration = .seconds(2),
            publishTimeout: Duration = .seconds(2),
            reconnectBackoff: ClosedRange<Duration> = .milliseconds(50)...(.seconds(5)),
            keepaliveIdle: Duration = .seconds(5), keepaliveInterval: Duration = .seconds(2), keepaliveCount: Int = 3,
            burstQuietPeriod: Duration = .microseconds(250), publicationCheckInterval: Duration = .seconds(1),
            lagCheckInterval: Duration = .milliseconds(100)
        ) {
            self.lagCheckInterval = lagCheckInterval
            self.burstQuietPeriod = burstQuietPeriod
            self.publicationCheckInterval = publicationCheckInterval
            self.pingInterval = pingInterval
            self.pingTimeout = pingTimeout
            self.publishTimeout = publishTimeout
            self.reconnectBackoff = reconnectBackoff
            self.keepaliveIdle = keepaliveIdle
            self.keepaliveInterval = keepaliveInterval
            self.keepaliveCount = keepaliveCount
        }

        /// libpq's keepalive parameters.
        var keepaliveParameters: [(keyword: String, value: String)] {
            [
                ("keepalives", "1"), ("keepalives_idle", "\(max(1, keepaliveIdle.components.seconds))"),
                ("keepalives_interval", "\(max(1, keepaliveInterval.components.seconds))"),
                ("keepalives_count", "\(max(1, keepaliveCount))")
            ]
        }
    }
}

extension PostgresStore.Options {
    /// The dimensions of `fetchkit_pool_wait_seconds` for the store's `pool` (`writer`, `reader`).
    func poolWaits(_ pool: String) -> [(String, String)] {
        [("store", label), ("pool", pool)]
    }
}
