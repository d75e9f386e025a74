import CLibPQ
import FetchKit

/// Maps PostgreSQL's SQLSTATE codes to ``FetchKitError``.
///
/// Unique, foreign-key, not-null and check violations name their constraint (or column); serialization
/// failures and deadlocks, too many connections, lost connections and lock timeouts have their own cases;
/// anything else is ``FetchKitError/Code/database`` with the SQLSTATE in the message.
enum PostgresErrorMapping {
    /// `PQresultErrorField` codes: libpq's `PG_DIAG_*` macros are character literals Swift does not import.
    enum Field {
        static let sqlState = Int32(UInt8(ascii: "C"))
        static let message = Int32(UInt8(ascii: "M"))
        static let detail = Int32(UInt8(ascii: "D"))
        static let column = Int32(UInt8(ascii: "c"))
        static let constraint = Int32(UInt8(ascii: "n"))
    }

    /// The error a failed `result` carries.
    static func error(of result: PostgresResult, connection: PostgresConnection, sql: String?) -> FetchKitError {
        let state = field(result, Field.sqlState) ?? ""
        if state.isEmpty && !connection.isConnected { return connectionError(connection, sql: sql) }
        let message =
            field(result, Field.message)
            ?? PostgresConnection.message(PQresultErrorMessage(result.handle))
        let detail = field(result, Field.detail).map { "\(message) (\($0))" } ?? message
        return error(
            state: state, message: detail, constraint: field(result, Field.constraint),
            column: field(result, Field.column), sql: sql)
    }

    /// The error for SQLSTATE `state`.
    static func error(state: String, message: String, constraint: String?, column: String?, sql: String?)
        -> FetchKitError
    {
        switch state {
        case "23505": return .constraintViolation(.unique, name: constraint, message: message)
        case "23503": return .constraintViolation(.foreignKey, name: constraint, message: message)
        case "23502": return .constraintViolation(.notNull, name: column ?? constraint, message: message)
        case "23514": return .constraintViolation(.check, name: constraint, message: message)
        case _ where state.hasPrefix("23"): return .constraintViolation(.other, name: constraint, message: message)
        case "40001", "40P01": return .serializationFailure(message)
        case "53300": return .tooManyConnections(message)
        case "53100": return .diskFull(message)
        case "25006": return .readOnly(message)
        case "42501": return .permissionDenied(message)
        case "55P03": return .busy(sql.map { "\(message) (running: \($0))" } ?? message)
        case "54000" where message.contains("NOTIFY queue"):
            return .busy(
                "the server's NOTIFY queue is full (\(message)): a session that LISTENs is not reading its "
                    + "notifications; find it with pg_notification_queue_usage() and pg_stat_activity (FetchKit's "
                    + "listener terminates its own abandoned session when it reconnects)")
        case "57P01", "57P02", "57P03": return .connectionLost(message)
        case _ where state.hasPrefix("08"): return .connectionLost(message)
        default:
            return .database(
                code: 0, message: "SQLSTATE \(state): \(message)", sql: sql, isTransient: isTransient(state: state))
        }
    }

    /// Whether trying again can cure a failure with SQLSTATE `state`: a cancelled statement (57014), a server
    /// out of resources (class 53), a system error (class 58).
    static func isTransient(state: String) -> Bool {
        state == "57014" || state.hasPrefix("53") || state.hasPrefix("58")
    }

    /// The error for a connection that failed without a result (it broke, or ran out of memory).
    static func connectionError(_ connection: PostgresConnection, sql: String?) -> FetchKitError {
        let message = PostgresConnection.message(PQerrorMessage(connection.handle))
        guard connection.isConnected else { return .connectionLost("\(connection.redactedURL): \(message)") }
        return .database(code: 0, message: message, sql: sql)
    }

    private static func field(_ result: PostgresResult, _ code: Int32) -> String? {
        PQresultErrorField(result.handle, code).map { String(cString: $0) }
    }
}
