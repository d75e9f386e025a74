import FetchKitBackendKit

extension PostgresConnection {
    /// The tables of `schema` that the connection's current schema holds, described for planning
    /// (``SchemaPlanner``): each column with the attribute type FetchKit reads it as (none for a type it does
    /// not support), primary keys, indexes.
    func databaseDescription(for schema: Schema) throws -> DatabaseDescription {
        var tables: [DatabaseDescription.Table] = []
        for entity in schema.entities {
            let columns = try PostgresTableColumn.columns(of: entity.table, on: self)
            guard !columns.isEmpty else { continue }
            tables.append(
                DatabaseDescription.Table(
                    name: entity.table,
                    columns: columns.map { column in
                        // A type FetchKit cannot read accepts no attribute type: the plan refuses the column,
                        // naming its declared type and how to migrate it by hand.
                        let type = try? PostgresColumnType(column, table: entity.table).attributeType
                        return DatabaseDescription.Column(
                            name: column.name, declaredType: column.displayType, accepts: type.map { [$0] } ?? [],
                            isNullable: column.isNullable, hasDefault: column.hasDefault)
                    },
                    primaryKey: try PostgresStore.primaryKeyColumns(of: entity.table, on: self),
                    indexes: try indexes(of: entity.table)))
        }
        return DatabaseDescription(tables: tables)
    }

    /// The indexes of `table` (in the search path), each with its columns in order (an expression's position
    /// reads as an empty name).
    private func indexes(of table: String) throws -> [DatabaseDescription.Index] {
        let rows = try execute(
            """
            SELECT ic.relname::text AS name, coalesce(a.attname::text, '') AS column_name
            FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
            LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
            WHERE i.indrelid = to_regclass($1)
            ORDER BY ic.relname, k.position
            """, [.text(SQLDialect.postgres.quote(table))]
        ).rows()
        var indexes: [DatabaseDescription.Index] = []
        for row in rows {
            let name = row["name", as: String.self] ?? ""
            let column = row["column_name", as: String.self] ?? ""
            if indexes.last?.name == name {
                indexes[indexes.count - 1].columns.append(column)
            } else {
                indexes.append(DatabaseDescription.Index(name: name, columns: [column]))
            }
        }
        return indexes
    }
}
