import CSQLite
import FetchKit

extension SQLiteConnection {
    /// The ``FetchKitError`` for result code `code`, with the connection's current error message (a file that
    /// cannot be written is ``FetchKitError/Code/readOnly``: see ``SQLiteErrorMapping/error(code:on:sql:)``).
    func error(_ code: Int32, sql: String?) -> FetchKitError {
        SQLiteErrorMapping.error(code: code, on: handle, sql: sql)
    }
}

/// Maps SQLite result codes to ``FetchKitError``.
enum SQLiteErrorMapping {
    /// The error for an (extended) result code and SQLite's message.
    ///
    /// Constraint failures name the constraint SQLite reports: `todo.title` for a unique or
    /// NOT NULL column, the constraint's name for a named CHECK.
    static func error(code: Int32, message: String, sql: String?) -> FetchKitError {
        switch code & 0xFF {
        case SQLITE_CONSTRAINT:
            return .constraintViolation(constraint(for: code), name: constraintName(in: message), message: message)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy(sql.map { "\(message) (running: \($0))" } ?? message)
        case SQLITE_FULL:
            return .diskFull(message)
        case SQLITE_READONLY:
            return .readOnly(message)
        case SQLITE_PERM, SQLITE_AUTH:
            return .permissionDenied(message)
        default:
            return .database(code: code, message: message, sql: sql, isTransient: isTransient(code))
        }
    }

    /// Whether trying again can cure a failure with (extended) result code `code`: out of memory, an I/O
    /// error, a file that could not be opened, a locking-protocol failure. The primary code is the low byte.
    /// (A file that could not be opened because it is not writable is not asked: it is
    /// ``FetchKitError/Code/readOnly``, which is permanent.)
    static func isTransient(_ code: Int32) -> Bool {
        [SQLITE_NOMEM, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PROTOCOL].contains(code & 0xFF)
    }

    /// The kind of constraint an extended `SQLITE_CONSTRAINT_*` code names.
    ///
    /// The `SQLITE_CONSTRAINT_*` macros are expressions Swift does not import; their values are
    /// `SQLITE_CONSTRAINT | (n << 8)`.
    static func constraint(for code: Int32) -> FetchKitError.Constraint {
        guard code & 0xFF == SQLITE_CONSTRAINT else { return .other }
        switch code >> 8 {
        case 8: return .unique
        case 6: return .primaryKey
        case 3: return .foreignKey
        case 5: return .notNull
        case 1: return .check
        default: return .other
        }
    }

    /// What follows "constraint failed: " in SQLite's message (`todo.title`, `todo.a, todo.b`,
    /// a CHECK's name), or `nil` when the message names nothing (foreign keys).
    static func constraintName(in message: String) -> String? {
        guard let range = message.range(of: "constraint failed: ") else { return nil }
        let name = message[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }
}
