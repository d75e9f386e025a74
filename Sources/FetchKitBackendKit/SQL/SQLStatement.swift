/// One SQL statement with its bound values, ready for a backend to prepare and run.
///
/// ```swift
/// let statement = try compiler.delete(Fixtures.todo, key: 7)
/// // statement.sql == #"DELETE FROM "todo" WHERE "id" = ?"#, statement.bindings == [.integer(7)]
/// ```
public struct SQLStatement: Sendable, Hashable {
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
