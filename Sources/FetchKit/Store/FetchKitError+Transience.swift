// Shorthands for each code, so throw sites read `throw FetchKitError.busy(message)`: the backends', and any
// backend's (a third party's too).
extension FetchKitError {
    /// A ``Code/invalidSchema`` error.
    public static func invalidSchema(_ message: String) -> FetchKitError {
        FetchKitError(.invalidSchema, message: message)
    }

    /// A ``Code/unknownEntity`` error.
    public static func unknownEntity(_ name: String) -> FetchKitError {
        FetchKitError(.unknownEntity, message: "unknown entity \(SafeText.quoted(name))", entity: name)
    }

    /// A ``Code/invalidPredicate`` error.
    public static func invalidPredicate(_ message: String, offset: Int?) -> FetchKitError {
        FetchKitError(.invalidPredicate, message: message, offset: offset)
    }

    /// A ``Code/unknownKey`` error.
    public static func unknownKey(_ key: String, entity: String, offset: Int?) -> FetchKitError {
        FetchKitError(
            .unknownKey, message: "unknown key \(SafeText.quoted(key)) on entity \(SafeText.escaped(entity))",
            keyPath: key, entity: entity,
            offset: offset)
    }

    /// A ``Code/typeMismatch`` error.
    public static func typeMismatch(key: String, expected: AttributeType, got: String, offset: Int?) -> FetchKitError {
        FetchKitError(
            .typeMismatch, message: "\(SafeText.quoted(key)) is \(expected), got \(got)", keyPath: key, offset: offset)
    }

    /// A ``Code/unsupported`` error.
    public static func unsupported(_ what: String) -> FetchKitError { FetchKitError(.unsupported, message: what) }

    /// A construct of a predicate FetchKit refuses, at `offset` in its format string: the message is
    /// `construct`, then `detail` in parentheses.
    public static func unsupported(_ construct: String, detail: String? = nil, offset: Int?) -> FetchKitError {
        FetchKitError(
            .unsupported, message: construct + (detail.map { " (\($0))" } ?? ""), offset: offset,
            construct: construct)
    }

    /// A ``Code/constraintViolation`` error.
    public static func constraintViolation(_ kind: Constraint, name: String?, message: String) -> FetchKitError {
        FetchKitError(.constraintViolation, message: message, constraint: kind, constraintName: name)
    }

    /// A ``Code/busy`` error.
    public static func busy(_ message: String) -> FetchKitError { FetchKitError(.busy, message: message) }

    /// A ``Code/schemaMismatch`` error.
    public static func schemaMismatch(table: String, detail: String) -> FetchKitError {
        FetchKitError(.schemaMismatch, message: detail, table: table)
    }

    /// A ``Code/connectionLost`` error.
    public static func connectionLost(_ message: String) -> FetchKitError {
        FetchKitError(.connectionLost, message: message)
    }

    /// A ``Code/tooManyConnections`` error.
    public static func tooManyConnections(_ message: String) -> FetchKitError {
        FetchKitError(.tooManyConnections, message: message)
    }

    /// A ``Code/serializationFailure`` error.
    public static func serializationFailure(_ message: String) -> FetchKitError {
        FetchKitError(.serializationFailure, message: message)
    }

    /// A ``Code/invalidURL`` error.
    public static func invalidURL(_ message: String) -> FetchKitError { FetchKitError(.invalidURL, message: message) }

    /// The store is closed.
    public static var closed: FetchKitError { FetchKitError(.closed, message: "the store is closed") }

    /// A ``Code/recordMapping`` error.
    public static func recordMapping(entity: String, detail: String) -> FetchKitError {
        FetchKitError(.recordMapping, message: detail, entity: entity)
    }

    /// A ``Code/invalidValue`` error.
    public static func invalidValue(_ message: String) -> FetchKitError {
        FetchKitError(.invalidValue, message: message)
    }

    /// A ``Code/unknownRequestName`` error.
    public static func unknownRequestName(_ name: String, known: [String]) -> FetchKitError {
        FetchKitError(
            .unknownRequestName,
            message:
                "no fetch request named \(SafeText.quoted(name)) (known: "
                + "\(SafeText.escaped(known.joined(separator: ", "))))",
            requestName: name, knownRequestNames: known)
    }

    /// A ``Code/diskFull`` error.
    public static func diskFull(_ message: String) -> FetchKitError { FetchKitError(.diskFull, message: message) }

    /// A ``Code/readOnly`` error.
    public static func readOnly(_ message: String) -> FetchKitError { FetchKitError(.readOnly, message: message) }

    /// A ``Code/permissionDenied`` error.
    public static func permissionDenied(_ message: String) -> FetchKitError {
        FetchKitError(.permissionDenied, message: message)
    }

    /// A ``Code/storeFileMissing`` error.
    public static func storeFileMissing(_ message: String) -> FetchKitError {
        FetchKitError(.storeFileMissing, message: message)
    }

    /// A ``Code/inconsistency`` error.
    public static func inconsistency(_ message: String) -> FetchKitError {
        FetchKitError(.inconsistency, message: message)
    }

    /// A ``Code/sectionOrder`` error.
    public static func sectionOrder(key: String, section: String) -> FetchKitError {
        FetchKitError(
            .sectionOrder,
            message:
                "section \(SafeText.quoted(section)) of key path \(SafeText.quoted(key)) appears twice: its "
                + "rows are not together in the "
                + "request's order (sections are told apart byte for byte, as the database stores them); sort by "
                + "\(SafeText.quoted(key)) first and case-sensitively",
            keyPath: key, section: section)
    }

    /// A ``Code/database`` error.
    public static func database(code: Int32, message: String, sql: String?, isTransient: Bool = false)
        -> FetchKitError
    {
        FetchKitError(.database, message: message, databaseCode: code, sql: sql, isTransient: isTransient)
    }

    /// `error` as a ``FetchKitError``: itself when it is one, else a ``Code/database`` error describing it
    /// and wrapping it.
    public init(wrapping error: any Error) {
        if let error = error as? FetchKitError {
            self = error
        } else {
            self.init(.database, message: String(describing: error), databaseCode: 0, underlying: error)
        }
    }
}
