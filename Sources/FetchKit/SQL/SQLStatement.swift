/// One SQL statement with its bound values, ready for a backend to prepare and run.
///
/// ```swift
/// let statement = try compiler.delete(Fixtures.task, key: 7)
/// // statement.sql == #"DELETE FROM "task" WHERE "id" = ?"#, statement.bindings == [.integer(7)]
/// ```
@_spi(Backend) public struct SQLStatement: Sendable, Hashable {
    /// The SQL text; values appear only as placeholders.
    public var sql: String
    /// The values of the placeholders, in order.
    public var bindings: [Value]

    /// Creates a statement.
    public init(sql: String, bindings: [Value] = []) {
        self.sql = sql
        self.bindings = bindings
    }
}

/// A compiled fetch: the statement and what each selected column holds.
@_spi(Backend) public struct CompiledFetch: Sendable, Hashable {
    /// The `SELECT` statement.
    public var statement: SQLStatement
    /// The selected columns, in `SELECT` order: the primary key first, then the requested attributes,
    /// then one column per sort or section key path not already selected (named by its dotted key path).
    public var columns: [ResultColumn]

    /// Creates a compiled fetch.
    public init(statement: SQLStatement, columns: [ResultColumn]) {
        self.statement = statement
        self.columns = columns
    }
}

/// One column of a fetch's result: the name rows use for it and the type to read it as.
@_spi(Backend) public struct ResultColumn: Sendable, Hashable {
    /// The attribute name (`title`) or dotted key path (`category.name`).
    public var name: String
    /// How to read the column's values.
    public var type: AttributeType

    /// Creates a result column.
    public init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }
}
