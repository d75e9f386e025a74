import FetchKitBackendKit

extension PostgresStore {
    /// The SQL that installs FetchKit's change capture on `schema`'s tables — the trigger function in schema
    /// `fetchkit` and each table's triggers — as one transaction, for a DBA to run as a migration, so that
    /// the app's role needs no `CREATE` on the database nor ownership of the tables.
    ///
    /// A store that opens on a database where it is installed (same channel and row limit as `options`)
    /// changes nothing. Tables are qualified with `namespace` when given; otherwise run the script with the
    /// app's `search_path`.
    ///
    /// ```swift
    /// try migration.write(PostgresStore.changeCaptureSQL(for: schema, namespace: "app"))
    /// ```
    public static func changeCaptureSQL(for schema: Schema, namespace: String? = nil, options: Options = Options())
        -> String
    {
        PostgresChangeCapture(channel: options.channel, rowLimit: options.notificationRowLimit).script(
            for: capturedTables(of: schema), namespace: namespace)
    }

    /// The tables of `schema` as change capture follows them: key column and followed foreign keys.
    static func capturedTables(of schema: Schema) -> [PostgresChangeCapture.CapturedTable] {
        let references = PostgresReferenceColumns(schema: schema, paddedKeyTables: [])
        return schema.entities.map { entity in
            PostgresChangeCapture.CapturedTable(
                table: entity.table, keyColumn: entity.primaryKeyAttribute.column,
                references: references.byTable[entity.table]?.map(\.column) ?? [])
        }
    }

    /// The SQL that installs change capture on existing `tables` of the database at `url` (each table's
    /// single-column primary key read from it, and every single-column foreign key followed, so that any schema's
    /// to-many relationships over these tables are localised), qualified with the URL's current schema. What
    /// `fetchkit capture-sql` prints.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` for a table that does not exist or has no
    ///   single-column primary key; connection errors.
    public static func changeCaptureSQL(forTables tables: [String], url: PostgresURL, options: Options = Options())
        async throws -> String
    {
        let pool = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.capture", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        do {
            let (namespace, keyed) = try await pool.run { connection in
                let namespace = try connection.currentSchema()
                let keyed = try tables.map { table -> PostgresChangeCapture.CapturedTable in
                    let keys = try primaryKeyColumns(of: table, on: connection)
                    guard keys.count == 1 else {
                        throw FetchKitError.schemaMismatch(
                            table: table,
                            detail: keys.isEmpty
                                ? "no such table, or it has no primary key"
                                : "FetchKit needs a single-column primary key")
                    }
                    return PostgresChangeCapture.CapturedTable(
                        table: table, keyColumn: keys[0], references: try foreignKeyColumns(of: table, on: connection))
                }
                return (namespace, keyed)
            }
            await pool.shutDown()
            return PostgresChangeCapture(channel: options.channel, rowLimit: options.notificationRowLimit)
                .script(for: keyed, namespace: namespace)
        } catch {
            await pool.shutDown()
            throw error
        }
    }

    /// The columns of `table`'s single-column foreign keys (in the connection's search path), in column order.
    static func foreignKeyColumns(of table: String, on connection: PostgresConnection) throws -> [String] {
        let names = try connection.execute(
            """
            SELECT a.attname::text AS name FROM pg_constraint c
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
            WHERE c.conrelid = to_regclass($1) AND c.contype = 'f' AND cardinality(c.conkey) = 1
            ORDER BY a.attnum
            """, [.text(SQLDialect.postgres.quote(table))]
        ).rows().compactMap { $0["name", as: String.self] }
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The columns of `table`'s primary key (in the connection's search path).
    static func primaryKeyColumns(of table: String, on connection: PostgresConnection) throws -> [String] {
        try connection.execute(
            """
            SELECT a.attname::text AS name FROM pg_index i
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = to_regclass($1) AND i.indisprimary
            """, [.text(SQLDialect.postgres.quote(table))]
        ).rows().compactMap { $0["name", as: String.self] }
    }
}

extension PostgresConnection {
    /// The schema unqualified names resolve to (`current_schema()`).
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when the search path names no existing schema.
    func currentSchema() throws -> String {
        guard case .text(let name)? = try execute("SELECT current_schema()::text AS s").rows().first?["s"] else {
            throw FetchKitError.invalidValue("the connection has no current schema (check search_path)")
        }
        return name
    }
}
