import FetchKit

/// One column of an existing table, as `pragma_table_info` describes it.
struct SQLiteTableColumn: Sendable, Hashable {
    /// The column's name.
    var name: String
    /// The declared type (`INTEGER`, `TEXT`, `FLOAT8_BLOB`, or empty).
    var declaredType: String
    /// Whether the column is `NOT NULL`.
    var isNotNull: Bool
    /// Whether the column has a default value.
    var hasDefault: Bool
    /// The column's position in the primary key (1-based), or 0.
    var primaryKeyPosition: Int

    /// The column's type affinity.
    var affinity: SQLiteAffinity { SQLiteAffinity(declaredType: declaredType) }
}

extension SQLiteConnection {
    /// The columns of `table` in declaration order; empty when no such table exists.
    func tableColumns(_ table: String) throws -> [SQLiteTableColumn] {
        let sql = #"SELECT name, type, "notnull", dflt_value IS NOT NULL, pk FROM pragma_table_info(?)"#
        return try withStatement(sql) { statement in
            try statement.bind([.text(table)])
            var columns: [SQLiteTableColumn] = []
            while try statement.step() {
                columns.append(
                    SQLiteTableColumn(
                        name: statement.text(at: 0), declaredType: statement.text(at: 1),
                        isNotNull: statement.integer(at: 2) != 0, hasDefault: statement.integer(at: 3) != 0,
                        primaryKeyPosition: Int(statement.integer(at: 4))))
            }
            return columns
        }
    }
}
