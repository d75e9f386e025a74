/// The handle a ``PersistentStore/write(_:)`` closure receives. Valid only inside that closure.
///
/// Every method throws a ``FetchKitError`` and leaves the transaction to be rolled back
/// when the error escapes the closure.
public protocol WriteTransaction: AnyObject {
    /// The store's schema.
    var schema: Schema { get }

    /// Inserts `record`; returns it with its primary key filled in when the store assigned one.
    @discardableResult func insert<R: Record>(_ record: R) throws -> R
    /// Inserts a row into `entity`; absent attributes take their defaults. Returns the primary key.
    @discardableResult func insert(_ row: Row, into entity: String) throws -> Value
    /// Inserts `records` in order, all at once where the backend can (PostgreSQL streams them with one
    /// `COPY`); returns them with their primary keys filled in where the store assigned them.
    ///
    /// Change capture sees every row; the rows arrive as one change. Keys the records give move the
    /// store's key sequence past them, as ``insert(_:)`` does.
    ///
    /// - Complexity: O(*n*) in the number of records; on PostgreSQL in a constant number of round trips (one
    ///   per record only for keys a column default must assign: "Bulk inserts" in "Operating PostgreSQL").
    /// - Throws: the errors of ``insert(_:)`` for the first record that has one (a value that does not
    ///   fit, a missing required value, a duplicate key); the transaction then rolls back whole.
    @discardableResult func insert<R: Record>(contentsOf records: [R]) throws -> [R]
    /// Inserts `rows` into `entity` in order, all at once where the backend can; absent attributes take
    /// their defaults. Returns each row's primary key.
    ///
    /// - Complexity: O(*n*) in the number of rows.
    /// - Throws: the errors of ``insert(_:into:)`` for the first row that has one.
    @discardableResult func insert(contentsOf rows: [Row], into entity: String) throws -> [Value]
    /// Inserts `record`, or replaces every attribute of the row with the same primary key.
    func upsert<R: Record>(_ record: R) throws
    /// Inserts `row`, or updates the attributes it names on the row with the same primary key.
    func upsert(_ row: Row, into entity: String) throws
    /// Writes every attribute of `record` to the row with its primary key; throws if there is none.
    func update<R: Record>(_ record: R) throws
    /// Sets the attributes named in `values` on the row whose primary key is `key`; returns
    /// whether such a row existed.
    @discardableResult func update(_ entity: String, key: Value, set values: Row) throws -> Bool
    /// Sets `values` on every row of `entity` matching `predicate`; returns how many rows changed.
    @discardableResult func update(_ entity: String, where predicate: FetchPredicate, set values: Row) throws -> Int
    /// Deletes `record`'s row; returns whether it existed.
    @discardableResult func delete<R: Record>(_ record: R) throws -> Bool
    /// Deletes the row of `entity` whose primary key is `key`; returns whether it existed.
    @discardableResult func delete(_ entity: String, key: Value) throws -> Bool
    /// Deletes every row of `entity` matching `predicate`; returns how many.
    @discardableResult func delete(_ entity: String, where predicate: FetchPredicate) throws -> Int
    /// Runs raw SQL with bound values; returns the number of rows changed.
    @discardableResult func execute(_ sql: String, _ bindings: [Value]) throws -> Int
    /// Fetches inside the transaction (sees its uncommitted writes).
    func fetch(_ request: AnyFetchRequest) throws -> [Row]
    /// Fetches records inside the transaction.
    func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) throws -> [R]
}
