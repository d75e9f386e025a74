import Logging

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
    /// The store's change feed: it publishes one ``StoreChange`` per committed transaction, in commit order (a
    /// change with ``StoreChange/isResync`` when the store may have missed changes, one with
    /// ``StoreChange/delivery`` when it cannot deliver or is behind), and routes them to the store's live
    /// controllers. The store makes it when it is made and keeps it as a `let` (`let changeFeed = ChangeFeed()`),
    /// returned every time; a store that wraps another may return the other's.
    var changeFeed: ChangeFeed { get }
    /// Waits until the change of every write that returned before this call has been published to ``changes()``
    /// subscribers (``lastTransactionID`` then covers it): what `controller.sync()` waits for first, so
    /// read-your-writes holds on a store whose writes return before their change is published (a PostgreSQL
    /// store returns at commit and publishes what its feed reads). A store that publishes a write's change before
    /// `write` returns needs nothing here: the default returns at once.
    func waitForPublication() async
    /// Waits until the store has published every transaction committed through `token` — by this store or any
    /// other client of its database — to ``changes()`` subscribers: what ``ResultsController/sync(after:)`` waits
    /// for first. The default waits for this store's own writes (``waitForPublication()``), which is all a store
    /// without a shared log can know.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` when the token cannot belong to the store's database.
    func waitForPublication(through token: CommitToken) async throws
    /// Closes every connection; later calls throw ``FetchKitError/closed``.
    func close() async
    /// Where the store and its live controllers log: the logger the store was opened with. The store's events
    /// (opening, schema changes, a lost and regained feed with how many controllers it affects, closing) are at
    /// info; each controller's at debug and trace, with its identifier in the `fetchkit.controller` metadata.
    /// The default is the task's logger (`Logger.current`) when read.
    var logger: Logger { get }
    /// The dimensions every metric of the store carries: `store`, a label the app gives it, and `feed`, how its
    /// changes arrive. The default is the store's type name alone.
    var metricDimensions: [(String, String)] { get }
}

extension PersistentStore {
    /// Returns at once: the store publishes a write's change before `write` returns.
    public func waitForPublication() async {}

    /// Waits for this store's own writes (``waitForPublication()``): a store without a shared log knows no other.
    public func waitForPublication(through token: CommitToken) async throws { await waitForPublication() }

    /// The task's logger (`Logger.current`): a store that keeps no logger of its own logs where its caller does.
    public var logger: Logger { Logger.current }

    /// `store` with the store's type name.
    public var metricDimensions: [(String, String)] { [("store", "\(Self.self)")] }

    /// Subscribes to committed changes (``changeFeed``'s ``ChangeFeed/subscribe()``): one ``StoreChange`` per
    /// committed transaction, in commit order, from now on. Ending the iteration unsubscribes.
    public func changes() -> AsyncStream<StoreChange> {
        changeFeed.subscribe()
    }

    /// The ``StoreChange/transactionID`` of the last change published to ``changes()`` subscribers
    /// (0 before the first). A consumer that has seen this ID has seen every change committed so far.
    public var lastTransactionID: UInt64 {
        changeFeed.lastPublishedID
    }
}
