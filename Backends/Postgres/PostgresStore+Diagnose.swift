import CLibPQ
import FetchKitBackendKit

extension PostgresStore {
    /// Checks whether the database at `url` is ready for a store: the connection, the server, what the logical
    /// feed needs (`wal_level`, the role's right to replicate, a free slot and WAL sender), the right to install
    /// the trigger feed's capture, and a pooler that would break `LISTEN`. It reads settings and catalogs only
    /// and changes nothing.
    public static func diagnose(url text: String) async -> [DiagnosticCheck] {
        let url: PostgresURL
        do {
            url = try PostgresURL(text)
        } catch {
            return [
                DiagnosticCheck("connection", .failure, "\(error)", fix: "write the URL as postgres://user@host/db")
            ]
        }
        do {
            let pool = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.doctor", size: 1) { _ in
                try PostgresConnection.open(url)
            }
            // `run` throws only once the pool is shut down, which nothing does before it returns.
            let checks = (try? await pool.run { connection in Self.diagnose(connection, url: url) }) ?? []
            await pool.shutDown()
            return [DiagnosticCheck("connection", .ok, "connected to \(url.redacted)")] + checks
        } catch {
            return [
                DiagnosticCheck(
                    "connection", .failure, "\(error)",
                    fix: "check the URL, that the server runs and listens there, and its pg_hba.conf")
            ]
        }
    }

    /// The checks of ``diagnose(url:)`` on `configuration.url`.
    public static func diagnose(_ configuration: StoreConfiguration) async -> [DiagnosticCheck] {
        await diagnose(url: configuration.url)
    }

    /// The checks on an open connection.
    private static func diagnose(_ connection: PostgresConnection, url: PostgresURL) -> [DiagnosticCheck] {
        // A setting or catalog that cannot be read is `nil`: its check says so instead of passing.
        func value(_ sql: String) -> String? {
            guard let result = try? connection.run(sql), result.rowCount == 1,
                let text = PQgetvalue(result.handle, 0, 0)
            else { return nil }
            return String(cString: text)
        }
        var checks: [DiagnosticCheck] = []
        let version = value("SHOW server_version") ?? "unknown"
        checks.append(DiagnosticCheck("server", .ok, "PostgreSQL \(version)"))
        let walLevel = value("SHOW wal_level") ?? "unknown"
        let logical = walLevel == "logical"
        checks.append(
            logical
                ? DiagnosticCheck("wal_level", .ok, "logical: the logical feed can run")
                : DiagnosticCheck(
                    "wal_level", .warning, "\(walLevel): only the trigger feed can run",
                    fix: "for the logical feed, ALTER SYSTEM SET wal_level = logical, then restart the server"))
        let role = value("SELECT current_user") ?? "?"
        let replicates = value("SELECT (rolreplication OR rolsuper)::text FROM pg_roles WHERE rolname = current_user")
        checks.append(
            replicates == "true"
                ? DiagnosticCheck("replication role", .ok, "\(role) may replicate")
                : DiagnosticCheck(
                    "replication role", .warning, "\(role) may not replicate: the logical feed cannot start",
                    fix: "ALTER ROLE \(role) REPLICATION (or grant the managed service's replication role)"))
        // What the logical feed takes one of: free with any of them left, else a failure where it could run.
        func capacity(_ name: String, setting: String, used: String, needs: String, fix: String) {
            guard let maximum = value("SHOW \(setting)").flatMap(Int.init), let used = value(used).flatMap(Int.init)
            else {
                checks.append(DiagnosticCheck(name, .warning, "could not read \(setting) or its use", fix: fix))
                return
            }
            let free = maximum - used
            checks.append(
                free > 0
                    ? DiagnosticCheck(name, .ok, "\(free) of \(maximum) free")
                    : DiagnosticCheck(
                        name, logical ? .failure : .warning, "none of \(maximum) free: \(needs)", fix: fix))
        }
        capacity(
            "replication slots", setting: "max_replication_slots", used: "SELECT count(*) FROM pg_replication_slots",
            needs: "a logical feed cannot start",
            fix: "drop unused slots (fetchkit slots) or raise max_replication_slots")
        capacity(
            "WAL senders", setting: "max_wal_senders", used: "SELECT count(*) FROM pg_stat_replication",
            needs: "a logical feed cannot stream", fix: "raise max_wal_senders")
        let canCreate = value("SELECT has_schema_privilege(current_schema(), 'CREATE')::text")
        checks.append(
            canCreate == "true"
                ? DiagnosticCheck("trigger capture", .ok, "\(role) may install the trigger feed's capture")
                : DiagnosticCheck(
                    "trigger capture", .warning, "\(role) may not create in \(value("SELECT current_schema()") ?? "?")",
                    fix: "have a DBA run the script of fetchkit capture install --print, or use the logical feed"))
        do {
            try PostgresListener.verifySessionIsPinned(connection, url: url, extra: [])
            checks.append(DiagnosticCheck("pooler", .ok, "each session keeps its server process (LISTEN works)"))
        } catch {
            checks.append(
                DiagnosticCheck(
                    "pooler", .warning, "a transaction-mode pooler: LISTEN cannot work through this URL",
                    fix: "point the listener at a direct connection (fetchkit.postgres.listenerURL)"))
        }
        return checks
    }
}
