import FetchKit
import FetchKitDrivers
import Logging

/// A store in a PostgreSQL database, through libpq.
///
/// One writer connection runs every write transaction; a pool of reader connections serves fetches. Each
/// connection lives on its own thread: no libpq call runs on the cooperative pool. Values travel as typed,
/// binary parameters and results.
///
/// ```swift
/// let store = try await PostgresStore.open(url: "postgresql://app@localhost/tasks", schema: schema)
/// try await store.write { tx in try tx.insert(Task(title: "Ship it")) }
/// let tasks = try await store.fetch(FetchRequest(Task.self), as: Task.self)
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
    let logger: Logger
    /// The one connection that runs write transactions.
    let writer: ConnectionPool<PostgresConnection>
    /// The connections that serve fetches.
    let readers: ConnectionPool<PostgresConnection>
    /// The subscribers of ``changes()``.
    let feed = ChangeFeed()

    private init(
        schema: Schema, url: PostgresURL, options: Options, dialect: SQLDialect,
        writer: ConnectionPool<PostgresConnection>, readers: ConnectionPool<PostgresConnection>
    ) {
        self.schema = schema
        self.url = url
        self.options = options
        self.dialect = dialect
        self.compiler = SQLCompiler(schema: schema, dialect: dialect)
        self.logger = options.logger
        self.writer = writer
        self.readers = readers
    }

    deinit {
        readers.shutDownWithoutWaiting()
        writer.shutDownWithoutWaiting()
        feed.finish()
    }

    /// Connects to the database at `url`, creates the schema's missing tables and validates the existing
    /// ones (see ``Options/schemaPolicy``).
    ///
    /// - Throws: ``FetchKitError/invalidURL(_:)`` for a malformed URL; ``FetchKitError/connectionLost(_:)``
    ///   or ``FetchKitError/tooManyConnections(_:)`` when the server refuses;
    ///   ``FetchKitError/schemaMismatch(table:detail:)`` when a table does not match.
    public static func open(url: String, schema: Schema, options: Options = .init()) async throws -> PostgresStore {
        try await open(url: PostgresURL(url), schema: schema, options: options)
    }

    /// Connects to the database at `url` (see ``open(url:schema:options:)-(String,_,_)``).
    public static func open(url: PostgresURL, schema: Schema, options: Options = .init()) async throws -> PostgresStore {
        guard options.readerCount > 0 else {
            throw FetchKitError.invalidValue("readerCount must be at least 1 (got \(options.readerCount))")
        }
        let writer = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.w", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        do {
            let hasUnaccent = try await writer.run { connection in
                try connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'unaccent'").rowCount > 0
            }
            var dialect = SQLDialect.postgres
            if hasUnaccent { dialect.diacriticFoldFunction = "unaccent" }
            let compiler = SQLCompiler(schema: schema, dialect: dialect)
            try await writer.run { [logger = options.logger, policy = options.schemaPolicy] connection in
                try PostgresSchemaSetup(schema: schema, compiler: compiler, policy: policy, logger: logger)
                    .run(on: connection)
            }
            let readers = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.r", size: options.readerCount) { _ in
                try PostgresConnection.open(url)
            }
            options.logger.info(
                "opened PostgreSQL store", metadata: ["url": "\(url.redacted)", "readers": "\(options.readerCount)"])
            return PostgresStore(
                schema: schema, url: url, options: options, dialect: dialect, writer: writer, readers: readers)
        } catch {
            await writer.shutDown()
            throw error
        }
    }

    /// Lets queued work finish, then closes every connection. Later calls throw ``FetchKitError/closed``.
    public func close() async {
        guard !writer.isClosed else { return }
        await readers.shutDown()
        await writer.shutDown()
        feed.finish()
        logger.info("closed PostgreSQL store", metadata: ["url": "\(url.redacted)"])
    }

    /// Subscribes to committed changes: one ``StoreChange`` per committed transaction, in commit order.
    public func changes() -> AsyncStream<StoreChange> { feed.subscribe() }

    /// The ID of the last change published to ``changes()`` subscribers (0 before the first).
    public var lastTransactionID: UInt64 { feed.lastPublishedID }
}
