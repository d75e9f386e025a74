import FetchKit

/// What a ``SQLWriteTransaction`` needs of a backend's writer connection.
public protocol SQLWriteConnection: AnyObject {
    /// Whether a transaction is open.
    var isInTransaction: Bool { get }
    /// The primary key the database assigned to the last inserted row, when an insert returns none.
    var lastAssignedKey: Value? { get }
    /// Runs an `INSERT`; returns the key its `RETURNING` clause gave (`nil` without one).
    func insert(_ statement: SQLStatement, keyType: AttributeType) throws -> Value?
    /// Runs one statement to completion; returns the rows it inserted, updated or deleted (0 for others).
    func changedRows(_ statement: SQLStatement) throws -> Int
    /// Runs a compiled `SELECT count(*)`.
    func count(_ statement: SQLStatement) throws -> Int
    /// Runs a compiled fetch.
    func fetchRows(_ fetch: CompiledFetch) throws -> [Row]
    /// Runs a compiled fetch and decodes its rows into records.
    func fetchRecords<R: Record>(_ fetch: CompiledFetch, as type: R.Type) throws -> [R]
    /// Inserts every row of `batch`, in order, inside the open transaction; returns each row's primary key
    /// (the one it gave, else the one the database assigned). A default inserts one row per statement.
    func insert(_ batch: SQLBulkInsert) throws -> [Value]
    /// Called with the largest integer primary key the caller chose for `entity` in this transaction (before
    /// the database next picks one for it, or before the commit), so a backend whose keys come from a
    /// sequence can move it past that key.
    func didWrite(explicitKey key: Value, into entity: Entity, dialect: SQLDialect) throws
}

extension SQLWriteConnection {
    /// Nothing to do: the database picks keys above every key present (SQLite's rowid).
    public func didWrite(explicitKey key: Value, into entity: Entity, dialect: SQLDialect) throws {}
}
