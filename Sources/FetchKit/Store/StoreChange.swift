/// What one committed transaction changed, as a store's change feed reports it.
///
/// A store publishes one `StoreChange` per committed transaction, after the commit completes,
/// in commit order. Changes made inside a rolled-back transaction or savepoint are never published.
/// A change with ``isResync`` set means the store may have missed changes (another process
/// committed, a notification was lost): every live result over any table must be re-fetched.
public struct StoreChange: Sendable, Hashable {
    /// A store-assigned, increasing number for the transaction.
    public var transactionID: UInt64
    /// The changed tables, by table name.
    public var tables: [String: TableChange]
    /// `true` when the store cannot say what changed and every table must be treated as changed.
    public var isResync: Bool
    /// When the store published the change, right after the commit completed: the start of the
    /// commit-to-delegate latency. Not part of equality or hashing.
    public var publishedAt: ContinuousClock.Instant

    /// Creates a change, published now.
    public init(transactionID: UInt64, tables: [String: TableChange], isResync: Bool = false) {
        self.transactionID = transactionID
        self.tables = tables
        self.isResync = isResync
        self.publishedAt = .now
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

/// The rows of one table that a transaction inserted, updated or deleted, by primary key.
///
/// A row inserted and then updated in the same transaction is reported once, as inserted; a row
/// inserted and then deleted is reported as deleted (an insert event does not prove the key was new:
/// `INSERT OR REPLACE` over an existing row reports one too). Keys are named conservatively — a key may
/// be named that did not end up changed, never the other way round — so a consumer re-reads every key
/// it is given. When the store cannot name the rows (a statement that
/// touched too many, a truncating `DELETE`, a table without usable keys) ``isWholeTable`` is set.
public struct TableChange: Sendable, Hashable {
    /// Primary keys of inserted rows.
    public var inserted: Set<Value>
    /// Primary keys of updated rows.
    public var updated: Set<Value>
    /// Primary keys of deleted rows.
    public var deleted: Set<Value>
    /// `true` when every row of the table must be considered changed.
    public var isWholeTable: Bool

    /// Creates a table change.
    public init(
        inserted: Set<Value> = [], updated: Set<Value> = [], deleted: Set<Value> = [], isWholeTable: Bool = false
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isWholeTable = isWholeTable
    }

    /// Every key the change names.
    public var allKeys: Set<Value> { inserted.union(updated).union(deleted) }

    /// Records one row operation, folding it into what the transaction already did to that row.
    public mutating func record(_ operation: Operation, key: Value) {
        switch operation {
        case .insert:
            if deleted.remove(key) != nil { updated.insert(key) } else { inserted.insert(key) }
        case .update:
            if !inserted.contains(key) { updated.insert(key) }
        case .delete:
            inserted.remove(key)
            updated.remove(key)
            deleted.insert(key)
        }
    }

    /// A row operation.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case insert, update, delete
    }
}
