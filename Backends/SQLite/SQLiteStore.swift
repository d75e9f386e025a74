import FetchKitBackendKit
import Logging

/// The embedded store: a SQLite database file (or a private in-memory database).
///
/// One writer connection runs every write transaction; a pool of read-only connections serves
/// fetches of a file store, which uses WAL so readers see the last committed state while a write
/// runs. Each connection lives on its own thread: no SQLite call runs on the cooperative pool.
/// ``changes()`` publishes what each committed write changed (hooks on the writer connection) and
/// a resync when another connection or process commits (polling `PRAGMA data_version`).
///
/// ```swift
/// let store = try await SQLiteStore.open(path: "todos.sqlite", schema: schema)
/// try await store.write { tx in try tx.insert(Todo(title: "Ship it")) }
/// let todos = try await store.fetch(FetchRequest(Todo.self), as: Todo.self)
/// await store.close()
/// ```
public final class SQLiteStore: PersistentStore {
    /// The entities this store holds.
    public let schema: Schema
    /// The database file, or `nil` for an in-memory store.
    public let path: String?
    /// The options the store was opened with.
    public let options: Options
    /// SQLite's dialect.
    public var dialect: SQLDialect { .sqlite }

    let compiler: SQLCompiler
    /// Where the store and its live controllers log: ``Options/logger``.
    public let logger: Logger
    /// `store`: ``Options/label``; `feed`: `hooks` (SQLite's update and commit hooks).
    public var metricDimensions: [(String, String)] { [("store", options.label), ("feed", "hooks")] }
    /// The one read-write connection: every write transaction, and reads of an in-memory store.
    let writer: ConnectionPool<SQLiteConnection>
    /// The read-only connections, or `nil` when reads run on the writer.
    let readers: ConnectionPool<SQLiteConnection>?
    /// The change feed's hooks on the writer, and its subscribers (see ``changes()``).
    let changeCollector: SQLiteChangeCollector
    /// Watches for other connections' commits; `nil` for an in-memory store or when disabled.
    let dataVersionPoller: DataVersionPoller?
    /// The database file as opened, to notice it deleted or replaced; `nil` for an in-memory store.
    let fileWatch: SQLiteFileWatch?

    private init(
        schema: Schema, path: String?, options: Options, writer: ConnectionPool<SQLiteConnection>,
        readers: ConnectionPool<SQLiteConnection>?,
        changeCollector: SQLiteChangeCollector, fileWatch: SQLiteFileWatch?
    ) {
        self.schema = schema
        self.path = path
        self.options = options
        self.compiler = SQLCompiler(schema: schema, dialect: .sqlite)
        self.logger = options.logger
        self.writer = writer
        self.readers = readers
        self.changeCollector = changeCollector
        self.fileWatch = fileWatch
        if path != nil, let interval = options.dataVersionPollInterval {
            dataVersionPoller = DataVersionPoller(
                interval: interval, writer: writer, collector: changeCollector, fileWatch: fileWatch)
        } else {
            dataVersionPoller = nil
        }
    }

    deinit {
        // Without close(), the threads still finish queued jobs, close their connections and end.
        dataVersionPoller?.stop()
        readers?.shutDownWithoutWaiting()
        writer.shutDownWithoutWaiting()
        changeCollector.feed.finish()
    }

    /// Opens (creating if needed) the database file at `path`, creates the schema's missing tables
    /// and validates the existing ones (see ``Options/schemaPolicy``).
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` when a table does not match;
    ///   ``FetchKitError/Code/readOnly`` naming the file when it, or its directory, cannot be written (a read-only
    ///   file system, write-protected files); ``FetchKitError/Code/database`` when the file cannot be opened
    ///   for another reason.
    public static func open(path: String, schema: Schema, options: Options = .init()) async throws -> SQLiteStore {
        guard !path.isEmpty, path != ":memory:" else {
            throw FetchKitError.invalidValue(
                "'\(path)' is not a file path; use SQLiteStore.inMemory(schema:) for an in-memory store")
        }
        return try await start(path: path, schema: schema, options: options)
    }

    /// Opens a private in-memory database holding the schema's tables; it vanishes on ``close()``.
    ///
    /// Reads and writes share its one connection.
    public static func inMemory(schema: Schema, options: Options = .init()) async throws -> SQLiteStore {
        try await start(path: nil, schema: schema, options: options)
    }

    private static func start(path: String?, schema: Schema, options: Options) async throws -> SQLiteStore {
        let location = path ?? ":memory:"
        if let interval = options.dataVersionPollInterval, interval <= .zero {
            throw FetchKitError.invalidValue(
                "dataVersionPollInterval must be positive (got \(interval)); use nil to turn polling off")
        }
        try SQLDialect.sqlite.checkIdentifierLengths(of: schema)
        var configuration = SQLiteConnection.Configuration(
            path: path, readOnly: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
            statementCacheCapacity: options.statementCacheCapacity)
        let writerConfiguration = configuration
        let writer = try await ConnectionPool.start(
            name: "fk.sqlite.w", size: 1, waitDimensions: options.poolWaits("writer")
        ) { _ in
            try SQLiteConnection.open(writerConfiguration)
        }
        do {
            let compiler = SQLCompiler(schema: schema, dialect: .sqlite)
            try await writer.run {
                [logger = options.logger, policy = options.schemaPolicy, progress = SchemaProgress.current] connection
                in
                try SQLiteSchemaSetup(
                    schema: schema, compiler: compiler, policy: policy, logger: logger, progress: progress
                ).run(on: connection)
            }
            // The file exists once the schema is set up (WAL mode has been written to it).
            let fileWatch = try path.map(SQLiteFileWatch.init(path:))
            let changeCollector = SQLiteChangeCollector(
                schema: schema, feed: ChangeFeed(), logger: options.logger)
            try await writer.run { connection in try changeCollector.install(on: connection) }
            var readers: ConnectionPool<SQLiteConnection>?
            if path != nil, options.readerCount > 0 {
                configuration.readOnly = true
                let readerConfiguration = configuration
                readers = try await ConnectionPool.start(
                    name: "fk.sqlite.r", size: options.readerCount, waitDimensions: options.poolWaits("reader")
                ) { _ in
                    try SQLiteConnection.open(readerConfiguration)
                }
            }
            options.logger.info(
                "opened SQLite store",
                metadata: ["path": "\(location)", "readers": "\(readers?.size ?? 0)"])
            return SQLiteStore(
                schema: schema, path: path, options: options, writer: writer, readers: readers,
                changeCollector: changeCollector, fileWatch: fileWatch)
        } catch {
            await writer.shutDown()
            throw error
        }
    }

    /// Lets queued work finish, then closes every connection. Later calls throw ``FetchKitError/closed``.
    public func close() async {
        guard !writer.isClosed else { return }
        dataVersionPoller?.stop()
        await readers?.shutDown()
        await writer.shutDown()
        // After the writer's last job: every committed write has been published.
        changeCollector.feed.finish()
        logger.info("closed SQLite store", metadata: ["path": "\(path ?? ":memory:")"])
    }

    /// Runs `body` on a reader connection (the writer when there are no readers).
    ///
    /// - Throws: ``FetchKitError/Code/storeFileMissing`` once the file is known to be deleted or replaced.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        if let failure = fileWatch?.failure { throw failure }
        return try await (readers ?? writer).run(body)
    }
}
