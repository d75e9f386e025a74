/// The rows of one table that a transaction inserted, updated or deleted, by primary key.
///
/// A row inserted and then updated in the same transaction is reported once, as inserted; a row
/// inserted and then deleted is reported as deleted (an insert event does not prove the key was new:
/// `INSERT OR REPLACE` over an existing row reports one too). Keys are named conservatively — a key may
/// be named that did not end up changed, never the other way round — so a consumer re-reads every key
/// it is given, except those with an ``images`` entry. When the store cannot name the rows (a statement that
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
    /// The rows as the transaction left them, for the named keys whose state the store knows without a re-read
    /// (a PostgreSQL store reading its write-ahead log has them): a key here need not be re-read, a named key
    /// that is not must be. Each ``Image/row(_:)`` holds every attribute, primary key first, as a fetch of the
    /// entity returns it.
    public var images: [Value: Image]
    /// For each foreign-key attribute the store follows in this table (one that a to-many relationship's
    /// inverse stores), every value it held in a changed row before or after the transaction: the keys of the
    /// rows on the other side whose related rows changed. Named conservatively (a value may be one that did not
    /// change). An attribute absent here is unknown: a consumer then treats every row on the other side as
    /// possibly changed.
    public var references: [String: Set<Value>]

    /// What a transaction left of one row.
    public enum Image: Sendable, Hashable {
        /// The row as the transaction committed it.
        case row(Row)
        /// No row: the transaction deleted it.
        case absent
    }

    /// Creates a table change.
    public init(
        inserted: Set<Value> = [], updated: Set<Value> = [], deleted: Set<Value> = [], isWholeTable: Bool = false,
        images: [Value: Image] = [:], references: [String: Set<Value>] = [:]
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isWholeTable = isWholeTable
        self.images = images
        self.references = references
    }

    /// Every key the change names.
    public var allKeys: Set<Value> { inserted.union(updated).union(deleted) }

    /// Records one row operation, folding it into what the transaction already did to that row; an image of the
    /// row recorded before is dropped (set the new one after).
    public mutating func record(_ operation: Operation, key: Value) {
        images[key] = nil
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

    /// Records that a changed row's foreign key `attribute` held `value` (before or after the change); `NULL`
    /// references nothing.
    public mutating func recordReference(_ value: Value, attribute: String) {
        if value.isNull {
            if references[attribute] == nil { references[attribute] = [] }
        } else {
            references[attribute, default: []].insert(value)
        }
    }

    /// A row operation.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case insert, update, delete
    }
}
