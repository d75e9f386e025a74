import FetchKitBackendKit

/// The logical feed's setup errors, read into what to do about them: each names the setting or the statement
/// that fixes it.
enum LogicalFeedError {
    /// A failed replication connection: a role without `REPLICATION`, `max_wal_senders` reached, or `error`
    /// itself.
    static func connection(_ error: FetchKitError, user: String?) -> FetchKitError {
        let message = error.message
        let role = user.map { SQLDialect.postgres.quote($0) } ?? "<the store's role>"
        if message.contains("replication role") || message.contains("REPLICATION attribute")
            || message.contains("permission denied to start WAL sender")
        {
            return .permissionDenied(
                "the logical change feed needs a role with the REPLICATION attribute: run ALTER ROLE \(role) "
                    + "REPLICATION as a superuser (or set fetchkit.postgres.changeFeed = triggers). \(message)")
        }
        if message.contains("max_wal_senders") {
            return .tooManyConnections(
                "every WAL sender is in use: raise max_wal_senders (each store streaming the log holds one). "
                    + message)
        }
        return error
    }

    /// A replication command's error with SQLSTATE `state`.
    static func command(state: String, message: String) -> FetchKitError {
        switch state {
        case "55000" where message.contains("wal_level"):
            return .unsupported(
                "the logical change feed needs wal_level = logical: set it in postgresql.conf (or the managed "
                    + "service's parameters) and restart the server, or set fetchkit.postgres.changeFeed = "
                    + "triggers. The server said: \(message)")
        case "53400":
            return .tooManyConnections(
                "every replication slot is in use: raise max_replication_slots (each store streaming the log holds "
                    + "one), or drop slots nobody uses (`fetchkit slots --drop`). The server said: \(message)")
        case "42501":
            return .permissionDenied(
                "the logical change feed lacks a right: \(message). `fetchkit capture-sql --feed logical` prints "
                    + "what a DBA runs")
        default:
            return PostgresErrorMapping.error(state: state, message: message, constraint: nil, column: nil, sql: nil)
        }
    }
}
