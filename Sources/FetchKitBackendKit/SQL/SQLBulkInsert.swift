/// Many rows to insert into one entity's table, compiled and checked: what a backend needs to write them
/// in one go (PostgreSQL's `COPY`) or one statement at a time.
///
/// Every row holds one value per attribute of ``entity``, in declaration order (the primary key first),
/// each already converted to the attribute's type, defaults filled in, required values present. A row whose
/// integer primary key is `NULL` leaves it to the database.
///
/// ```swift
/// let batch = try compiler.insert(contentsOf: [["title": "a"], ["id": 9, "title": "b"]], into: Fixtures.todo)
/// batch.rowCount            // 2
/// batch.keylessRowCount     // 1 (the first row's key is the database's to assign)
/// batch.statement(forRow: 0) // INSERT INTO "todo" ("title", …) VALUES (?, …) RETURNING "id"
/// ```
public struct SQLBulkInsert: Sendable {
    /// The entity the rows belong to (the schema's declaration).
    public let entity: Entity
    /// The table, quoted for the dialect.
    public let quotedTable: String
    /// Every attribute's column, quoted for the dialect, in declaration order (the primary key first).
    public let quotedColumns: [String]
    /// The values, row after row, ``columnCount`` per row.
    public let values: [Value]
    /// How many rows leave their primary key to the database.
    public let keylessRowCount: Int
    /// The largest integer primary key the rows give, if any.
    public let largestGivenKey: Int64?
    /// The `INSERT` of one row that gives its primary key, and of one that does not (with `RETURNING` the
    /// key where the dialect can), values as placeholders.
    let keyedSQL: String?
    let keylessSQL: String?
    /// Each row's own statement, when the table has columns of database-specific types (their values are
    /// written through casts that depend on the value): such rows cannot share one statement, nor be sent as
    /// the standard types a binary `COPY` expects.
    public let rowStatements: [SQLStatement]?

    init(
        entity: Entity, quotedTable: String, quotedColumns: [String], values: [Value], keyedSQL: String?,
        keylessSQL: String?, rowStatements: [SQLStatement]? = nil
    ) {
        self.entity = entity
        self.quotedTable = quotedTable
        self.quotedColumns = quotedColumns
        self.values = values
        self.keyedSQL = keyedSQL
        self.keylessSQL = keylessSQL
        self.rowStatements = rowStatements
        let width = quotedColumns.count
        var keyless = 0
        var largest: Int64?
        for start in stride(from: 0, to: values.count, by: width) {
            switch values[start] {
            case .null: keyless += 1
            case .integer(let key): largest = max(largest ?? key, key)
            default: break
            }
        }
        self.keylessRowCount = keyless
        self.largestGivenKey = largest
    }

    /// The number of values per row.
    public var columnCount: Int { quotedColumns.count }

    /// The number of rows.
    public var rowCount: Int { values.count / quotedColumns.count }

    /// The values of row `index`, one per column.
    public func row(_ index: Int) -> ArraySlice<Value> {
        values[index * columnCount..<(index + 1) * columnCount]
    }

    /// The primary key row `index` gives (`NULL` when the database assigns it).
    public func key(ofRow index: Int) -> Value { values[index * columnCount] }

    /// The `INSERT` of row `index` alone: for a backend that writes the rows one statement at a time.
    /// With a key to assign and a dialect that supports `RETURNING`, the statement returns it.
    public func statement(forRow index: Int) -> SQLStatement {
        if let rowStatements { return rowStatements[index] }
        let row = row(index)
        guard row.first?.isNull ?? false, let keylessSQL else {
            return SQLStatement(sql: keyedSQL ?? "", bindings: Array(row))
        }
        return SQLStatement(sql: keylessSQL, bindings: Array(row.dropFirst()))
    }
}
