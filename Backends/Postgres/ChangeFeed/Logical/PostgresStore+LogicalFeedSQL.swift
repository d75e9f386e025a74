import FetchKitBackendKit

extension PostgresStore {
    /// The SQL a DBA runs once so that an app role can read the logical change feed of `tables` (of the URL's
    /// current schema): the publication the store would create, named as the store names it (or
    /// `publication`), and the `REPLICATION` attribute for `role` — with the server settings the feed needs as
    /// comments. What `fetchkit capture-sql --feed logical` prints.
    ///
    /// With the publication in place and naming exactly the store's tables, the store creates nothing: its role
    /// needs only `REPLICATION` and its tables' `SELECT, INSERT, UPDATE, DELETE`.
    ///
    /// - Throws: connection errors; ``FetchKitError/Code/invalidValue`` when the search path names no schema.
    public static func logicalFeedSQL(
        forTables tables: [String], url: PostgresURL, role: String, publication: String? = nil
    ) async throws -> String {
        let pool = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.capture", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        let namespace: String
        do {
            namespace = try await pool.run { connection in try connection.currentSchema() }
            await pool.shutDown()
        } catch {
            await pool.shutDown()
            throw error
        }
        let name = publication ?? defaultPublication(schemaName: namespace, tables: tables)
        let quote = SQLDialect.postgres.quote
        return """
            -- FetchKit's logical change feed for \(tables.map { "\(namespace).\($0)" }.joined(separator: ", ")).
            -- Run once as a superuser (the publication alone also as the tables' owner with CREATE on the database).
            -- The server needs, in postgresql.conf or the managed service's parameters (wal_level takes a restart):
            --   wal_level = logical
            --   max_replication_slots and max_wal_senders: at least one each per running store, plus other consumers
            --   max_slot_wal_keep_size = '10GB' (or what the disk allows): with a persistent slot
            --   (fetchkit.postgres.replicationSlot), bounds what a slot nobody reads keeps
            -- Controllers reading a to-many relationship (ANY todos.done == NO) re-evaluate only the parents a changed
            -- child row pointed at when the log carries the child's old row; without it, child updates and deletes
            -- refetch them. To log whole old rows of a child table (more WAL per update and delete):
            --   ALTER TABLE <child table> REPLICA IDENTITY FULL;
            BEGIN;
            \(LogicalReplicationCommands.createPublication(name, schema: namespace, tables: tables.sorted()));
            ALTER ROLE \(quote(role)) REPLICATION;
            COMMIT;

            """
    }
}
