/// What one committed transaction changed, as a store's change feed reports it.
///
/// A store publishes one `StoreChange` per committed transaction, after the commit completes,
/// in commit order. Changes made inside a rolled-back transaction or savepoint are never published.
/// A change with ``isResync`` set means the store may have missed changes (another process
/// committed, a notification was lost): every live result over any table must be re-fetched.
public struct StoreChange: Sendable, Hashable {
    /// A store-assigned, increasing number for the transaction. A change that reports the feed's delivery
    /// (``delivery``) takes a number too, so the numbers of consecutive transactions may skip.
    public var transactionID: UInt64
    /// The changed tables, by table name.
    public var tables: [String: TableChange]
    /// `true` when the store cannot say what changed and every table must be treated as changed.
    public var isResync: Bool
    /// When the transaction committed, on this process's clock: the start of the commit-to-delegate latency and
    /// of every controller's delivery lag. Where the store reads the database's log (PostgreSQL's logical feed),
    /// the commit's time on the database's clock, carried over by the log's own send time; otherwise when the
    /// store published the change, right after the commit completed. Not part of equality or hashing.
    public var publishedAt: ContinuousClock.Instant
    /// Where the transaction's commit ends in the database's log, when the store reads one (a PostgreSQL store on
    /// the logical feed: the commit's LSN as a byte offset; `nil` otherwise). Folded changes carry the latest. Not
    /// part of equality or hashing.
    public var logPosition: UInt64?
    /// A change of whether the feed can deliver (``ChangeFeed/publishDelivery(_:)``), `nil` for a committed
    /// transaction's change. Not part of equality or hashing.
    public var delivery: FeedDelivery?
    /// The trace contexts of the writes it covers, with the `Tracing` trait (``TraceLinks``). Not part of
    /// equality or hashing.
    package var traces = TraceLinks()

    /// Creates a change, published now.
    public init(
        transactionID: UInt64, tables: [String: TableChange], isResync: Bool = false, logPosition: UInt64? = nil
    ) {
        self.transactionID = transactionID
        self.tables = tables
        self.isResync = isResync
        self.publishedAt = .now
        self.logPosition = logPosition
    }

    /// Changes are equal when they name the same transaction, tables and resync flag.
    public static func == (lhs: StoreChange, rhs: StoreChange) -> Bool {
        lhs.transactionID == rhs.transactionID && lhs.tables == rhs.tables && lhs.isResync == rhs.isResync
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionID)
        hasher.combine(tables)
        hasher.combine(isResync)
    }

    /// A resync signal: anything may have changed.
    public static func resync(transactionID: UInt64) -> StoreChange {
        StoreChange(transactionID: transactionID, tables: [:], isResync: true)
    }

    /// Whether this change may affect `table`.
    public func touches(_ table: String) -> Bool { isResync || tables[table] != nil }
}
