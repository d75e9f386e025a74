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

    /// The SQL that removes FetchKit's change capture from `schema`'s tables — each table's triggers, then the
    /// `fetchkit` schema with its trigger function — as one transaction: the counterpart of
    /// ``changeCaptureSQL(for:namespace:options:)`` for a migration that takes it back. The function is shared by
    /// every FetchKit store of the database: run it when none uses the trigger feed any more.
    ///
    /// ```swift
    /// try migration.write(up: PostgresStore.changeCaptureSQL(for: schema, namespace: "app"),
    ///                     down: PostgresStore.removeChangeCaptureSQL(for: schema, namespace: "app"))
    /// ```
    public static func removeChangeCaptureSQL(for schema: Schema, namespace: String? = nil) -> String {
        PostgresChangeCapture.uninstallScript(for: schema.entities.map(\.table), namespace: namespace)
    }

    /// The SQL that removes change capture from `tables` of the database at `url`, qualified with the URL's
    /// current schema (see ``removeChangeCaptureSQL(for:namespace:)``). What `fetchkit capture uninstall --print`
    /// prints.
    ///
    /// - Throws: connection errors; ``FetchKitError/Code/invalidValue`` when the search path names no schema.
    public static func removeChangeCaptureSQL(forTables tables: [String], url: PostgresURL) async throws -> String {
        let namespace = try await currentSchema(url: url)
        return PostgresChangeCapture.uninstallScript(for: tables, namespace: namespace)
    }

    /// The schema unqualified names resolve to on a connection to `url`.
    static func currentSchema(url: PostgresURL) async throws -> String {
        try await withOneConnection(url, name: "fk.pg.capture") { connection in try connection.currentSchema() }
    }

    /// Runs a script of `changeCaptureSQL` or `removeChangeCaptureSQL` on the database at `url`, as it is: what
    /// `fetchkit capture install` and `uninstall` do.
    ///
    /// - Throws: ``FetchKitError/Code/permissionDenied`` when the URL's role may not; database errors (the
    ///   script's transaction is rolled back whole).
    public static func runCaptureScript(_ script: String, url: PostgresURL) async throws {
        try await withOneConnection(url, name: "fk.pg.capture") { connection in
            do {
                _ = try connection.run(script)
            } catch {
                // The script's error is the one to report; a failed ROLLBACK leaves nothing committed, since the
                // connection closes right after and the server rolls back what it left open.
                if connection.isConnected && connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
                throw error
            }
        }
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
