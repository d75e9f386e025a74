import FetchKitBackendKit

/// Whether a table carries FetchKit's capture triggers, and removing them from one table alone: what a tool that
/// opens a store for a while (`fetchkit watch`) needs to leave a database as it found it.
extension PostgresStore {
    /// Whether FetchKit's change-capture triggers are on `table` (in the search path of `url`).
    ///
    /// - Throws: connection errors.
    public static func hasChangeCaptureTriggers(onTable table: String, url: PostgresURL) async throws -> Bool {
        try await withOneConnection(url, name: "fk.pg.capture") { connection in
            let found = try connection.execute(
                "SELECT count(*)::int8 AS n FROM pg_trigger WHERE tgrelid = to_regclass($1) AND tgname LIKE $2",
                [.text(SQLDialect.postgres.quote(table)), .text("fetchkit\\_capture\\_%")])
            guard case .integer(let count)? = try found.rows().first?["n"] else { return false }
            return count > 0
        }
    }

    /// Drops FetchKit's change-capture triggers from `tables` (in the search path of `url`), in one transaction,
    /// and keeps the shared trigger function, which other tables' triggers and other stores may use
    /// (``removeChangeCaptureSQL(forTables:url:)`` removes it too).
    ///
    /// - Throws: ``FetchKitError/Code/permissionDenied`` when the role does not own the tables; connection errors.
    public static func removeChangeCaptureTriggers(fromTables tables: [String], url: PostgresURL) async throws {
        try await withOneConnection(url, name: "fk.pg.capture") { connection in
            let namespace = try connection.currentSchema()
            let statements = PostgresChangeCapture.uninstallStatements(
                for: tables, dialect: .postgres, namespace: namespace, keepingFunction: true)
            _ = try connection.run("BEGIN")
            do {
                for statement in statements { _ = try connection.run(statement) }
                _ = try connection.run("COMMIT")
            } catch {
                // The statement's error is the one to report; a failed ROLLBACK leaves nothing committed, since the
                // connection closes right after and the server rolls back what it left open.
                if connection.isConnected && connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
                throw error
            }
        }
    }
}
