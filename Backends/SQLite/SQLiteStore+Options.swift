import FetchKitBackendKit
import Logging

extension SQLiteStore {
    /// What a store does with the schema's tables when it opens.
    public typealias SchemaPolicy = FetchKit.SchemaPolicy

    /// How a store opens and runs its connections.
    ///
    /// ```swift
    /// var options = SQLiteStore.Options()
    /// options.readerCount = 2
    /// options.busyTimeout = .milliseconds(500)
    /// let store = try await SQLiteStore.open(path: "app.sqlite", schema: schema, options: options)
    /// ```
    public struct Options: Sendable {
        /// How many read-only connections (each on its own thread) serve fetches of a file store.
        /// `0` reads on the writer connection. An in-memory store always reads on its writer.
        public var readerCount: Int
        /// How long a statement waits for a lock another connection or process holds before it
        /// fails with ``FetchKitError/Code/busy``.
        public var busyTimeout: Duration
        /// How many prepared statements each connection keeps (least recently used are finalized).
        public var statementCacheCapacity: Int
        /// Where the store and its live controllers log (see ``PersistentStore/logger``); by default the logger of
        /// the task that makes the options (`Logger.current`), ``silentLogger`` for none.
        public var logger: Logger
        /// The store's name in its metrics (their `store` dimension): set one per store when an app opens several
        /// (`"orders"`, `"sessions"`). Defaults to `sqlite`.
        public var label = "sqlite"
        /// Whether missing tables are created.
        public var schemaPolicy: SchemaPolicy
        /// How often a file store checks `PRAGMA data_version` for commits by other connections or
        /// processes, which reach ``SQLiteStore/changes()`` as a resync; `nil` never checks.
        /// Must be positive.
        public var dataVersionPollInterval: Duration?

        /// Creates options; the defaults are 4 readers, a 5 s busy timeout, 64 cached statements,
        /// the task's logger, ``SchemaPolicy/createMissing`` and a 100 ms data-version poll.
        public init(
            readerCount: Int = 4, busyTimeout: Duration = .seconds(5), statementCacheCapacity: Int = 64,
            logger: Logger = .current, schemaPolicy: SchemaPolicy = .createMissing,
            dataVersionPollInterval: Duration? = .milliseconds(100)
        ) {
            self.readerCount = readerCount
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.logger = logger
            self.schemaPolicy = schemaPolicy
            self.dataVersionPollInterval = dataVersionPollInterval
        }

        /// A logger that discards everything (label `fetchkit.sqlite`).
        public static var silentLogger: Logger {
            Logger(label: "fetchkit.sqlite", factory: { _ in SwiftLogNoOpLogHandler() })
        }

        /// ``busyTimeout`` in whole milliseconds, clamped to what SQLite accepts.
        var busyTimeoutMilliseconds: Int32 {
            let (seconds, attoseconds) = busyTimeout.components
            guard seconds >= 0 else { return 0 }
            let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
            guard !milliseconds.overflow, milliseconds.partialValue < Int64(Int32.max) else { return Int32.max }
            return Int32(clamping: milliseconds.partialValue + attoseconds / 1_000_000_000_000_000)
        }
    }
}

extension SQLiteStore.Options {
    /// The dimensions of `fetchkit_pool_wait_seconds` for the store's `pool` (`writer`, `reader`).
    func poolWaits(_ pool: String) -> [(String, String)] {
        [("store", label), ("pool", pool)]
    }
}
