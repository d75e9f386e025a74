extension FetchKitError {
    /// `true` for failures that trying again later can cure: a lost or refused connection, a busy database,
    /// a serialization failure, a cancelled statement, a server out of resources.
    ///
    /// A live controller retries these with backoff (``ResultsStatus/resyncing(_:)``); any other failure stops
    /// it (``ResultsStatus/failed(_:)``).
    public var isTransient: Bool {
        switch self {
        case .connectionLost, .busy, .tooManyConnections, .serializationFailure:
            return true
        case .database(let code, let message, _):
            // SQLite: SQLITE_NOMEM, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_PROTOCOL (extended codes
            // keep the primary code in the low byte). PostgreSQL (code 0): query cancelled (57014),
            // insufficient resources (53…), system errors (58…).
            if code != 0 { return [7, 10, 13, 14, 15].contains(code & 0xFF) }
            return ["SQLSTATE 57014", "SQLSTATE 53", "SQLSTATE 58"].contains { message.hasPrefix($0) }
        default:
            return false
        }
    }

    /// `error` as a ``FetchKitError``: itself when it is one, else a ``database(code:message:sql:)`` error
    /// describing it.
    init(wrapping error: any Error) {
        if let error = error as? FetchKitError {
            self = error
        } else {
            self = .database(code: 0, message: String(describing: error), sql: nil)
        }
    }
}
