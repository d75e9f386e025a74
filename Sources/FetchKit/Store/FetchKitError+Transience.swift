// The package's shorthands for each code, so throw sites read `throw FetchKitError.busy(message)`.
extension FetchKitError {
    package static func invalidSchema(_ message: String) -> FetchKitError {
        FetchKitError(.invalidSchema, message: message)
    }

    package static func unknownEntity(_ name: String) -> FetchKitError {
        FetchKitError(.unknownEntity, message: "unknown entity '\(name)'", entity: name)
    }

    package static func invalidPredicate(_ message: String, offset: Int?) -> FetchKitError {
        FetchKitError(.invalidPredicate, message: message, offset: offset)
    }

    package static func unknownKey(_ key: String, entity: String, offset: Int?) -> FetchKitError {
        FetchKitError(
            .unknownKey, message: "unknown key '\(key)' on entity \(entity)", keyPath: key, entity: entity,
            offset: offset)
    }

    package static func typeMismatch(key: String, expected: AttributeType, got: String, offset: Int?) -> FetchKitError {
        FetchKitError(.typeMismatch, message: "'\(key)' is \(expected), got \(got)", keyPath: key, offset: offset)
    }

    package static func unsupported(_ what: String) -> FetchKitError { FetchKitError(.unsupported, message: what) }

    /// A construct of a predicate FetchKit refuses, at `offset` in its format string: the message is
    /// `construct`, then `detail` in parentheses.
    package static func unsupported(_ construct: String, detail: String? = nil, offset: Int?) -> FetchKitError {
        FetchKitError(
            .unsupported, message: construct + (detail.map { " (\($0))" } ?? ""), offset: offset,
            construct: construct)
    }

    package static func constraintViolation(_ kind: Constraint, name: String?, message: String) -> FetchKitError {
        FetchKitError(.constraintViolation, message: message, constraint: kind, constraintName: name)
    }

    package static func busy(_ message: String) -> FetchKitError { FetchKitError(.busy, message: message) }

    package static func schemaMismatch(table: String, detail: String) -> FetchKitError {
        FetchKitError(.schemaMismatch, message: detail, table: table)
    }

    package static func connectionLost(_ message: String) -> FetchKitError {
        FetchKitError(.connectionLost, message: message)
    }

    package static func tooManyConnections(_ message: String) -> FetchKitError {
        FetchKitError(.tooManyConnections, message: message)
    }

    package static func serializationFailure(_ message: String) -> FetchKitError {
        FetchKitError(.serializationFailure, message: message)
    }

    package static func invalidURL(_ message: String) -> FetchKitError { FetchKitError(.invalidURL, message: message) }

    /// The store is closed.
    public static var closed: FetchKitError { FetchKitError(.closed, message: "the store is closed") }

    package static func recordMapping(entity: String, detail: String) -> FetchKitError {
        FetchKitError(.recordMapping, message: detail, entity: entity)
    }

    package static func invalidValue(_ message: String) -> FetchKitError {
        FetchKitError(.invalidValue, message: message)
    }

    package static func unknownRequestName(_ name: String, known: [String]) -> FetchKitError {
        FetchKitError(
            .unknownRequestName, message: "no fetch request named '\(name)' (known: \(known.joined(separator: ", ")))",
            requestName: name, knownRequestNames: known)
    }

    package static func diskFull(_ message: String) -> FetchKitError { FetchKitError(.diskFull, message: message) }

    package static func readOnly(_ message: String) -> FetchKitError { FetchKitError(.readOnly, message: message) }

    package static func permissionDenied(_ message: String) -> FetchKitError {
        FetchKitError(.permissionDenied, message: message)
    }

    package static func storeFileMissing(_ message: String) -> FetchKitError {
        FetchKitError(.storeFileMissing, message: message)
    }

    package static func inconsistency(_ message: String) -> FetchKitError {
        FetchKitError(.inconsistency, message: message)
    }

    package static func sectionOrder(key: String, section: String) -> FetchKitError {
        FetchKitError(
            .sectionOrder,
            message: "section '\(section)' of key path '\(key)' appears twice: its rows are not together in the "
                + "request's order (sections are told apart byte for byte, as the database stores them); sort by "
                + "'\(key)' first and case-sensitively",
            keyPath: key, section: section)
    }

    package static func database(code: Int32, message: String, sql: String?, isTransient: Bool = false)
        -> FetchKitError
    {
        FetchKitError(.database, message: message, databaseCode: code, sql: sql, isTransient: isTransient)
    }

    /// `error` as a ``FetchKitError``: itself when it is one, else a ``Code/database`` error describing it
    /// and wrapping it.
    package init(wrapping error: any Error) {
        if let error = error as? FetchKitError {
            self = error
        } else {
            self.init(.database, message: String(describing: error), databaseCode: 0, underlying: error)
        }
    }
}
