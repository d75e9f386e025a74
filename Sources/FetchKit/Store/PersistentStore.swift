/// The backend plugin contract: what every store (SQLite, PostgreSQL, a third party's) provides.
///
/// A store fetches and counts through compiled SQL, runs writes as single transactions,
/// and speaks one ``SQLDialect``. Stores are `Sendable`: any task may call them; the
/// blocking database calls run on the store's own threads, never on the cooperative pool.
///
/// ```swift
/// let store = try await SQLiteStore.open(path: "app.sqlite", schema: schema)
/// try await store.write { tx in try tx.insert(Todo(title: "Ship it")) }
/// let open = try await store.fetch(FetchRequest(Todo.self, predicate: try FetchPredicate(format: "done == NO")),
///                                  as: Todo.self)
/// ```
public protocol PersistentStore: AnyObject, Sendable {
    /// The entities this store holds.
    var schema: Schema { get }
    /// How this store's SQL is written.
    var dialect: SQLDialect { get }

    /// Fetches the rows matching `request`, in its order.
    func fetch(_ request: AnyFetchRequest) async throws -> [Row]
    /// Fetches the records matching `request`, in its order.
    func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) async throws -> [R]
    /// Counts the objects matching `request` (its limit and offset apply).
    func count(_ request: AnyFetchRequest) async throws -> Int
    /// Runs `body` in one transaction on the writer: it commits when `body` returns and rolls back
    /// whole when `body` (or the commit) throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T
    /// Subscribes to committed changes: one ``StoreChange`` per committed transaction, in commit order,
    /// from now on; a change with ``StoreChange/isResync`` when the store may have missed changes.
    /// Ending the iteration unsubscribes.
    func changes() -> AsyncStream<StoreChange>
    /// The ``StoreChange/transactionID`` of the last change published to ``changes()`` subscribers
    /// (0 before the first). A consumer that has seen this ID has seen every change committed so far.
    var lastTransactionID: UInt64 { get }
    /// Waits until the change of every write that returned before this call has been published to ``changes()``
    /// subscribers (``lastTransactionID`` then covers it): what `controller.sync()` waits for first, so
    /// read-your-writes holds on a store whose writes return before their change is published (a PostgreSQL
    /// store returns at commit and publishes what its feed reads). A store that publishes a write's change before
    /// `write` returns needs nothing here: the default returns at once.
    func waitForPublication() async
    /// Closes every connection; later calls throw ``FetchKitError/closed``.
    func close() async
    /// Where the change router of this store's live controllers lives: one ``LiveResultsRouting`` the store
    /// makes when it is made and keeps as a `let` (`let liveResultsRouting = LiveResultsRouting()`), returned
    /// every time. Never another store's, even when this store wraps one: its controllers read through it.
    var liveResultsRouting: LiveResultsRouting { get }
    /// Calls `receive` with the changes ``changes()`` would deliver, on the thread that publishes them, and
    /// `finish` when they end — or returns `nil` when the store offers only ``changes()`` (the default).
    ///
    /// The change router subscribes this way when it can: it folds a backlog as it arrives, so nothing queues
    /// without bound between the store and the router however busy the concurrency pool is.
    func subscribeChanges(
        receive: @escaping @Sendable (StoreChange) -> Void, finish: @escaping @Sendable () -> Void
    ) -> ChangeFeed.Subscription?
}

extension PersistentStore {
    /// Returns at once: the store publishes a write's change before `write` returns.
    public func waitForPublication() async {}

    /// No direct subscription: the change router reads ``changes()`` on a task of its own instead.
    public func subscribeChanges(
        receive: @escaping @Sendable (StoreChange) -> Void, finish: @escaping @Sendable () -> Void
    ) -> ChangeFeed.Subscription? {
        nil
    }
}
