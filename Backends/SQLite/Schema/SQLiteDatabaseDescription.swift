@_spi(Backend) import FetchKit
import FetchKitBackendKit

extension SQLiteConnection {
    /// The tables of `schema` that the database holds, described for planning (``SchemaPlanner``): columns
    /// with the attribute types their affinity serves, primary keys, indexes.
    func databaseDescription(for schema: Schema) throws -> DatabaseDescription {
        var tables: [DatabaseDescription.Table] = []
        for entity in schema.entities {
            let columns = try tableColumns(entity.table)
            guard !columns.isEmpty else { continue }
            let key = columns.filter { $0.primaryKeyPosition > 0 }.sorted {
                $0.primaryKeyPosition < $1.primaryKeyPosition
            }
            tables.append(
                DatabaseDescription.Table(
                    name: entity.table,
                    columns: columns.map { column in
                        DatabaseDescription.Column(
                            name: column.name,
                            declaredType: column.declaredType.isEmpty ? "untyped" : column.declaredType,
                            accepts: Self.acceptedTypes(of: column), isNullable: !column.isNotNull,
                            hasDefault: column.hasDefault)
                    },
                    primaryKey: key.map(\.name), indexes: try indexes(of: entity.table)))
        }
        return DatabaseDescription(tables: tables, namesIgnoreCase: true)
    }

    /// The attribute types `column` stores faithfully (as ``SQLiteSchemaValidator`` accepts them): by affinity;
    /// an integer key only when declared exactly `INTEGER` (the rowid, which SQLite assigns), a text key only
    /// when `NOT NULL`.
    private static func acceptedTypes(of column: SQLiteTableColumn) -> Set<AttributeType> {
        var accepted = Set(
            AttributeType.allCases.filter { type in
                SQLiteAffinity.accepted(for: type, declaredByDialect: SQLDialect.sqlite.columnType(for: type))
                    .contains(column.affinity)
            })
        if column.primaryKeyPosition > 0 {
            if column.declaredType.uppercased() != "INTEGER" { accepted.remove(.integer) }
            if !column.isNotNull { accepted.remove(.text) }
        }
        return accepted
    }

    /// The indexes of `table`, each with its columns in order.
    private func indexes(of table: String) throws -> [DatabaseDescription.Index] {
        let sql =
            "SELECT l.name, i.name FROM pragma_index_list(?) AS l JOIN pragma_index_info(l.name) AS i "
            + "ORDER BY l.name, i.seqno"
        return try withStatement(sql) { statement in
            try statement.bind([.text(table)])
            var indexes: [DatabaseDescription.Index] = []
            while try statement.step() {
                let name = statement.text(at: 0)
                let column = statement.text(at: 1)
                if indexes.last?.name == name {
                    indexes[indexes.count - 1].columns.append(column)
                } else {
                    indexes.append(DatabaseDescription.Index(name: name, columns: [column]))
                }
            }
            return indexes
        }
    }
}
