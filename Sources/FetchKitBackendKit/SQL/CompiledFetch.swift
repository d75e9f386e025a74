/// A compiled fetch: the statement and what each selected column holds.
public struct CompiledFetch: Sendable, Hashable {
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
