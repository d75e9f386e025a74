@_spi(Backend) import FetchKit
import FetchKitBackendKit
import Logging
import Synchronization

/// A store in a PostgreSQL database, through libpq.
///
/// One writer connection runs every write transaction; a pool of reader connections serves fetches. Each
/// connection lives on its own thread: no libpq call runs on the cooperative pool. Values travel as typed,
/// binary parameters and results.
///
/// ```swift
/// let store = try await PostgresStore.open(url: "postgresql://app@localhost/tasks", schema: schema)
/// try await store.write { tx in try tx.insert(Todo(title: "Ship it")) }
/// let todos = try await store.fetch(FetchRequest(Todo.self), as: Todo.self)
/// await store.close()
/// ```
public final class PostgresStore: PersistentStore {
    /// The entities this store holds.
    public let schema: Schema
    /// The server's URL (``PostgresURL/redacted`` is safe to show).
    public let url: PostgresURL
    /// The options the store was opened with.
    public let options: Options
    /// PostgreSQL's dialect, with `[d]` mapped to `unaccent` when the database has that extension.
    public let dialect: SQLDialect

    let compiler: SQLCompiler
    /// Where the store and its live controllers log: ``Options/logger``.
    public let logger: Logger
    /// `store`: ``Options/label``; `feed`: `triggers`, `logical` or `none` (``changeFeedKind``).
    public var metricDimensions: [(String, String)] {
        [("store", options.label), ("feed", changeFeedKind?.rawValue ?? "none")]
    }
    /// The one connection that runs write transactions.
    let writer: ConnectionPool<PostgresConnection>
    /// The connections that serve fetches.
    let readers: ConnectionPool<PostgresConnection>
    /// The reads the store has run (fetches and counts: the controllers', the change router's, the app's): what
    /// tests count to show that a change applied from the rows the log carried read nothing.
    let readCount = Atomic<Int>(0)
    /// The store's change feed: one ``StoreChange`` per committed transaction, in commit order — whichever
    /// client wrote it (this store, another app instance, psql), as the change feed captures it (FetchKit's
    /// triggers or the write-ahead log: see ``Options/changeFeed``). A change with
    /// ``StoreChange/isResync`` when changes may have been missed: the feed reconnected (without a persistent
    /// slot to resume), or a notification or a transaction in the log could not be read.
    ///
    /// A change arrives after its transaction committed, and a fetch through the store started on receipt sees it
    /// (with the logical feed, the store's reads first wait until the server shows what the feed published). A
    /// table whose statement changed more than ``Options/notificationRowLimit`` rows (the trigger feed), whose
    /// transaction changed more than 10,000 (the logical feed), or that was truncated, comes with
    /// ``TableChange/isWholeTable``. With the logical feed, each table's change carries the rows the transaction
    /// wrote (``TableChange/images``).
    ///
    /// A change with ``StoreChange/delivery`` set names no transaction: the feed says it cannot deliver (it lost
    /// its connection, a table left its publication) or delivers again (``FeedDelivery``).
    public let changeFeed: ChangeFeed
    /// Turns the triggers' notifications, or the log, into changes; `nil` without change capture.
    let source: (any PostgresChangeSource)?
    /// The feed the store reads: ``ChangeFeedKind/triggers`` or ``ChangeFeedKind/logical``; `nil` without change
    /// capture (``Options/changeCapture``).
    public let changeFeedKind: ChangeFeedKind?
    /// Why the store reads ``changeFeedKind``: asked for, or what ``ChangeFeedKind/auto`` found (`wal_level is
    /// replica, not logical`, a role that may not replicate, no free slot); `nil` without change capture.
    public let changeFeedReason: String?

    private init(
        schema: Schema, url: PostgresURL, options: Options, dialect: SQLDialect, nativeColumns: NativeColumns,
        writer: ConnectionPool<PostgresConnection>, readers: ConnectionPool<PostgresConnection>,
        feed: ChangeFeed, source: (any PostgresChangeSource)?, changeFeedReason: String?
    ) {
        self.changeFeedReason = changeFeedReason
        self.schema = schema
        self.url = url
        self.options = options
        self.dialect = dialect
        self.compiler = SQLCompiler(schema: schema, dialect: dialect, nativeColumns: nativeColumns)
        self.logger = options.logger
        self.writer = writer
        self.readers = readers
        self.changeFeed = feed
        self.source = source
        self.changeFeedKind = source is LogicalFeed ? .logical : source == nil ? nil : .triggers
    }

    deinit {
        readers.shutDownWithoutWaiting()
        writer.shutDownWithoutWaiting()
        changeFeed.finish()
    }

    /// Connects to the database at `url`, creates the schema's missing tables and validates the existing
    /// ones (see ``Options/schemaPolicy``).
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` for a malformed URL; ``FetchKitError/Code/connectionLost``
    ///   or ``FetchKitError/Code/tooManyConnections`` when the server refuses;
    ///   ``FetchKitError/Code/schemaMismatch`` when a table does not match;
    ///   ``FetchKitError/Code/invalidSchema`` for a table or column name longer than PostgreSQL's 63 bytes.
    public static func open(url: String, schema: Schema, options: Options = .init()) async throws -> PostgresStore {
        try await open(url: PostgresURL(url), schema: schema, options: options)
    }

    /// Connects to the database at `url` (see ``open(url:schema:options:)-(String,_,_)``).
    public static func open(url: PostgresURL, schema: Schema, options: Options = .init()) async throws -> PostgresStore
    {
        guard options.readerCount > 0 else {
            throw FetchKitError.invalidValue("readerCount must be at least 1 (got \(options.readerCount))")
        }
        // Before connecting: PostgreSQL would cut a long name silently and fail later, far from the cause.
        try SQLDialect.postgres.checkIdentifierLengths(of: schema)
        // Every connection probes an idle socket (TCP keepalives), so a half-open one fails its next
        // statement instead of hanging it.
        let keepalives = options.listener.keepaliveParameters
        let writer = try await ConnectionPool<PostgresConnection>.start(
            name: "fk.pg.w", size: 1, waitDimensions: options.poolWaits("writer")
        ) { _ in
            try PostgresConnection.open(url, extra: keepalives)
        }
        do {
            let (hasUnaccent, hasICU) = try await writer.run { connection in
                (
                    try connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'unaccent'").rowCount > 0,
                    // ICU collations exist and work in this database's encoding (not in SQL_ASCII).
                    (try? connection.execute(#"SELECT lower('A' COLLATE "und-x-icu") AS folded"#)) != nil
                )
            }
            var dialect = SQLDialect.postgres
            if hasUnaccent { dialect.diacriticFoldFunction = "unaccent" }
            if hasICU {
                dialect.caseFoldCollation = "und-x-icu"
                dialect.caseFoldComposition = .lowerUpperLower
                dialect.caseFoldMatchesMemory = true
            }
            let compiler = SQLCompiler(schema: schema, dialect: dialect)
            let nativeColumns = try await writer.run {
                [logger = options.logger, policy = options.schemaPolicy, progress = SchemaProgress.current] connection
                in
                try PostgresSchemaSetup(
                    schema: schema, compiler: compiler, policy: policy, logger: logger, progress: progress
                ).run(on: connection)
            }
            let feed = ChangeFeed()
            let started =
                options.changeCapture
                ? try await startChangeSource(
                    url: url, schema: schema, options: options, nativeColumns: nativeColumns, writer: writer, feed: feed
                )
                : nil
            let source = started?.source
            do {
                if options.readReplica != nil, options.changeCapture, !(source is LogicalFeed) {
                    throw FetchKitError.unsupported(
                        "reading from a replica (Options.readReplica) needs the logical change feed "
                            + "(Options.changeFeed = .logical): the triggers do not say where a commit ends in the log")
                }
                if options.readReplica != nil, let feed = source as? LogicalFeed {
                    // The standby's first reads show at least what the primary held when the store opened.
                    let end = try await writer.run { connection in try connection.logEnd() }
                    feed.visibility.published([], through: end)
                }
                let readers = try await ConnectionPool<PostgresConnection>.start(
                    name: "fk.pg.r", size: options.readerCount, waitDimensions: options.poolWaits("reader")
                ) { [readURL = options.readReplica ?? url] _ in
                    try PostgresConnection.open(readURL, extra: keepalives)
                }
                let store = PostgresStore(
                    schema: schema, url: url, options: options, dialect: dialect, nativeColumns: nativeColumns,
                    writer: writer, readers: readers, feed: feed, source: source, changeFeedReason: started?.reason)
                options.logger.info(
                    "opened PostgreSQL store",
                    metadata: [
                        "url": "\(url.redacted)", "readers": "\(options.readerCount)",
                        "changeFeed": "\(store.changeFeedKind?.rawValue ?? "none")",
                        "why": "\(started?.reason ?? "no change capture")"
                    ])
                return store
            } catch {
                await source?.stop()
                throw error
            }
        } catch {
            await writer.shutDown()
            throw error
        }
    }

    /// Lets queued work finish, then closes every connection. Later calls throw ``FetchKitError/closed``.
    public func close() async {
        guard !writer.isClosed else { return }
        await source?.stop()
        await readers.shutDown()
        await writer.shutDown()
        changeFeed.finish()
        logger.info("closed PostgreSQL store", metadata: ["url": "\(url.redacted)"])
    }

    /// What the change listener is doing: listening, checking a stalled connection, or reconnecting after a
    /// failure (and why).
    public var listenerStatus: ListenerStatus { ListenerStatus(source?.state) }

    /// The listener's status now, then each change of it (reconnecting, listening again, …) until the store
    /// closes: for health checks and logs.
    ///
    /// ```swift
    /// for await status in store.listenerStatusUpdates() { logger.info("change listener: \(status)") }
    /// ```
    public func listenerStatusUpdates() -> AsyncStream<ListenerStatus> {
        guard let source else {
            return AsyncStream {
                $0.yield(.disabled)
                $0.finish()
            }
        }
        let states = source.stateUpdates()
        return AsyncStream { continuation in
            let task = Task {
                for await state in states { continuation.yield(ListenerStatus(state)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What the change listener is doing.
    public enum ListenerStatus: Sendable, Equatable {
        /// Change capture is off (``Options/changeCapture``).
        case disabled
        /// Connected and listening: changes flow.
        case listening
        /// A write's change is overdue (``ListenerOptions/publishTimeout``): the listener is checking that its
        /// server process still answers, and reconnects if it does not within ``ListenerOptions/pingTimeout``.
        case stalled(reason: String)
        /// The connection broke; trying again (attempt 1, 2, …) after `lastError`.
        case reconnecting(attempt: Int, lastError: String)
        /// The store was closed.
        case stopped

        init(_ state: PostgresListener.State?) {
            switch state {
            case nil: self = .disabled
            case .listening?: self = .listening
            case .stalled(let reason)?: self = .stalled(reason: reason)
            case .reconnecting(let attempt, let lastError)?:
                self = .reconnecting(attempt: attempt, lastError: lastError)
            case .stopped?: self = .stopped
            }
        }
    }

    /// Removes FetchKit's change capture (the triggers on `schema`'s tables and the `fetchkit` schema with
    /// its function) from the database at `url`.
    public static func uninstallChangeCapture(url: PostgresURL, schema: Schema) async throws {
        let pool = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.u", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        do {
            try await pool.run { connection in
                try connection.inTransaction {
                    for statement in PostgresChangeCapture.uninstallStatements(
                        for: schema.entities.map(\.table), dialect: .postgres)
                    {
                        try connection.run(statement)
                    }
                }
            }
        } catch {
            await pool.shutDown()
            throw error
        }
        await pool.shutDown()
    }
}
