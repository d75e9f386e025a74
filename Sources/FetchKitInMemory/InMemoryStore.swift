import Dispatch
import FetchKitBackendKit
import Logging
import Synchronization

/// A store that holds its tables in memory and answers every request without a database: for testing
/// controllers without SQLite or a server, as swift-nio's embedded channel serves swift-nio.
///
/// It implements the whole ``PersistentStore`` contract and passes the conformance suite beside SQLite and
/// PostgreSQL: fetches and counts evaluate the request's predicate with the in-memory evaluator live results
/// use (which answers what the backends' SQL answers: `NULL`s, folds, `LIKE`, to-one key paths) and order
/// the rows as the database orders them (the sort descriptors, then the primary key); `ANY` / `ALL` / `NONE`,
/// `@count`, aggregates, arithmetic and `SUBQUERY` are computed over the related rows. A write runs on its
/// own copy of the tables and commits whole, or rolls back whole when its closure throws; primary keys,
/// required attributes and foreign keys (`ON DELETE SET NULL`) are checked as the backends' tables check
/// them. ``changes()`` publishes one change per committed transaction, as SQLite's store does.
///
/// It runs no SQL: ``WriteTransaction/execute(_:_:)`` throws ``FetchKitError/Code/unsupported`` and its
/// ``dialect`` says so (``SQLDialect/runsSQL`` is `false`).
///
/// ```swift
/// let store = InMemoryStore(schema: schema)
/// try await store.write { tx in try tx.insert(Todo(title: "Ship it")) }
/// let controller = ResultsController(store: store, request: FetchRequest(Todo.self))
/// try await controller.performFetch()
/// ```
///
/// - Complexity: a fetch evaluates the predicate on every row of the entity, O(*n*), and sorts what it
///   selects, O(*m* log *m*); a write copies each table it changes once, O(*n*).
public final class InMemoryStore: PersistentStore {
    /// The entities this store holds.
    public let schema: Schema
    /// The in-memory dialect: no SQL runs (``SQLDialect/runsSQL`` is `false`).
    public var dialect: SQLDialect { .inMemory }

    /// The committed tables, and whether the store is closed.
    private let state: Mutex<State>
    /// Runs the write closures one at a time, off the cooperative pool (a closure may block, as on the
    /// backends' writer threads).
    private let writer = DispatchQueue(label: "fetchkit.memory.writer")
    /// The store's change feed: one change per committed transaction that changed a row.
    public let changeFeed = ChangeFeed()

    private struct State {
        var database: InMemoryDatabase
        var isClosed = false
    }

    /// Where the store's live controllers log (see ``PersistentStore/logger``).
    public let logger: Logger
    /// `store` and `feed`: `memory`.
    public var metricDimensions: [(String, String)] { [("store", "memory"), ("feed", "memory")] }

    /// A new, empty store holding a table for each entity of `schema`; its live controllers log through `logger`
    /// (by default the task's, `Logger.current`).
    public init(schema: Schema, logger: Logger = .current) {
        self.schema = schema
        self.logger = logger
        self.state = Mutex(State(database: InMemoryDatabase(schema: schema)))
    }

    deinit {
        changeFeed.finish()
    }

    /// Closes the store: later calls throw ``FetchKitError/closed`` and every ``changes()`` stream ends.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // After the writes already queued: each of them has been published.
            writer.async {
                self.state.withLock { $0.isClosed = true }
                self.changeFeed.finish()
                continuation.resume()
            }
        }
    }

    /// The committed tables.
    ///
    /// - Throws: ``FetchKitError/closed`` after ``close()``.
    func committed() throws -> InMemoryDatabase {
        try state.withLock { state in
            guard !state.isClosed else { throw FetchKitError.closed }
            return state.database
        }
    }

    /// Runs `body` on the writer queue with a transaction over a copy of the committed tables; when it
    /// returns, the copy becomes the committed state and its changes are published.
    func transaction<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        let transaction = InMemoryTransaction(database: try committed(), schema: schema, dialect: dialect)
        defer { transaction.end() }
        let result = try body(transaction)
        try state.withLock { state in
            guard !state.isClosed else { throw FetchKitError.closed }
            state.database = transaction.database
        }
        if !transaction.changes.isEmpty { changeFeed.publish(transaction.changes) }
        return result
    }

    /// Runs `body` on the writer queue, suspending the caller until it ends.
    func onWriter<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writer.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
