/// The one error type FetchKit throws: what went wrong (its ``code``) and where (its context).
///
/// Match on the code, read the message or the whole description:
///
/// ```swift
/// do {
///     _ = try FetchPredicate(format: "compleet == YES").validated(for: task, in: schema)
/// } catch let error as FetchKitError where error.code == .unknownKey {
///     print(error)            // unknown key 'compleet' on entity Task (offset 0)
///     print(error.keyPath)    // Optional("compleet")
/// }
/// ```
///
/// `FetchKitError` is a struct, not an enum, so that a minor release can add codes and context without
/// breaking a `switch`: switch over ``code`` and keep a `default:`.
public struct FetchKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure an error is. New codes may be added in minor releases.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Kind: String, Sendable, Hashable {
            case invalidSchema, unknownEntity, invalidPredicate, unknownKey, typeMismatch, unsupported
            case constraintViolation, busy, schemaMismatch, connectionLost, tooManyConnections
            case serializationFailure, invalidURL, closed, recordMapping, invalidValue, unknownRequestName
            case diskFull, readOnly, permissionDenied, sectionOrder, database
        }

        fileprivate let kind: Kind

        fileprivate init(_ kind: Kind) { self.kind = kind }

        /// The code's name, as written in Swift (`constraintViolation`).
        public var description: String { kind.rawValue }

        /// A schema declaration is inconsistent.
        public static let invalidSchema = Code(.invalidSchema)
        /// No entity has this name (``FetchKitError/entity``).
        public static let unknownEntity = Code(.unknownEntity)
        /// A predicate format string does not parse, or an argument is missing (``FetchKitError/offset``).
        public static let invalidPredicate = Code(.invalidPredicate)
        /// A key path names no attribute or relationship of an entity (``FetchKitError/keyPath``, ``FetchKitError/entity``).
        public static let unknownKey = Code(.unknownKey)
        /// A value does not fit the attribute it is compared with or written to (``FetchKitError/keyPath``).
        public static let typeMismatch = Code(.typeMismatch)
        /// A construct FetchKit cannot translate for this backend; the message names it.
        public static let unsupported = Code(.unsupported)
        /// A write violated a constraint (``FetchKitError/constraint``, ``FetchKitError/constraintName``).
        public static let constraintViolation = Code(.constraintViolation)
        /// The database stayed locked by another connection or process past the busy timeout.
        public static let busy = Code(.busy)
        /// An existing table does not match the schema (``FetchKitError/table``).
        public static let schemaMismatch = Code(.schemaMismatch)
        /// The connection to the database is gone (or could not be made).
        public static let connectionLost = Code(.connectionLost)
        /// The server refused a connection because it has too many.
        public static let tooManyConnections = Code(.tooManyConnections)
        /// The transaction could not be serialized with concurrent ones (or deadlocked); running it again may succeed.
        public static let serializationFailure = Code(.serializationFailure)
        /// A store URL does not parse or names no known backend; the message never contains the password.
        public static let invalidURL = Code(.invalidURL)
        /// The store is closed.
        public static let closed = Code(.closed)
        /// A row could not be turned into a record, or a record into a row (``FetchKitError/entity``).
        public static let recordMapping = Code(.recordMapping)
        /// A value cannot be stored (for example NaN, or text containing NUL).
        public static let invalidValue = Code(.invalidValue)
        /// A ``MultiResultsController`` has no fetch request of this name; the message lists the names it has.
        public static let unknownRequestName = Code(.unknownRequestName)
        /// The database or its disk is full; the write was rolled back whole.
        public static let diskFull = Code(.diskFull)
        /// The database is read-only (a read-only file or connection, a read-only transaction or replica).
        public static let readOnly = Code(.readOnly)
        /// The database refused for lack of a right; the message says which.
        public static let permissionDenied = Code(.permissionDenied)
        /// Rows of one section are not adjacent in the request's order (``FetchKitError/keyPath``,
        /// ``FetchKitError/section``): sort by the section key path first, case-sensitively.
        public static let sectionOrder = Code(.sectionOrder)
        /// Any other error the database reported (``FetchKitError/databaseCode``, ``FetchKitError/sql``).
        public static let database = Code(.database)
    }

    /// The kinds of constraint a write can violate. New kinds may be added in minor releases.
    public struct Constraint: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name (`unique`, `foreignKey`…).
        public let rawValue: String
        /// A kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// A unique constraint or index.
        public static let unique = Constraint(rawValue: "unique")
        /// The primary key.
        public static let primaryKey = Constraint(rawValue: "primaryKey")
        /// A foreign key.
        public static let foreignKey = Constraint(rawValue: "foreignKey")
        /// A `NOT NULL` column.
        public static let notNull = Constraint(rawValue: "notNull")
        /// A `CHECK` constraint.
        public static let check = Constraint(rawValue: "check")
        /// Any other constraint.
        public static let other = Constraint(rawValue: "other")
    }

    /// What kind of failure this is.
    public var code: Code

    /// The context, behind one reference so the error stays two words: the parser throws it (typed) through
    /// deeply nested calls, where a wide error would widen every frame.
    private var context: ContextBox

    private struct Context: Sendable {
        var message: String
        var keyPath: String?
        var entity: String?
        var table: String?
        var offset: Int?
        var section: String?
        var constraint: Constraint?
        var constraintName: String?
        var databaseCode: Int32?
        var sql: String?
        var underlying: (any Error)?
        var isTransient: Bool
    }

    private final class ContextBox: Sendable {
        let value: Context
        init(_ value: Context) { self.value = value }
    }

    private mutating func update(_ change: (inout Context) -> Void) {
        var value = context.value
        change(&value)
        context = ContextBox(value)
    }

    /// What happened, in words: the detail the ``description`` is made of (without the code's wording and
    /// the position).
    public var message: String {
        get { context.value.message }
        set { update { $0.message = newValue } }
    }
    /// The key path concerned (an unknown key, a mismatched attribute, a section key path), when there is one.
    public var keyPath: String? {
        get { context.value.keyPath }
        set { update { $0.keyPath = newValue } }
    }
    /// The entity concerned, when there is one.
    public var entity: String? {
        get { context.value.entity }
        set { update { $0.entity = newValue } }
    }
    /// The table concerned, when there is one.
    public var table: String? {
        get { context.value.table }
        set { update { $0.table = newValue } }
    }
    /// The position in the predicate format string, in UTF-8 bytes, when the error comes from one.
    public var offset: Int? {
        get { context.value.offset }
        set { update { $0.offset = newValue } }
    }
    /// The section value concerned (``Code/sectionOrder``).
    public var section: String? {
        get { context.value.section }
        set { update { $0.section = newValue } }
    }
    /// The kind of constraint violated (``Code/constraintViolation``).
    public var constraint: Constraint? {
        get { context.value.constraint }
        set { update { $0.constraint = newValue } }
    }
    /// The constraint (or column) violated, when the backend says.
    public var constraintName: String? {
        get { context.value.constraintName }
        set { update { $0.constraintName = newValue } }
    }
    /// The database's own error code (0 when the database reports a textual code, such as a SQLSTATE in the message).
    public var databaseCode: Int32? {
        get { context.value.databaseCode }
        set { update { $0.databaseCode = newValue } }
    }
    /// The SQL statement that failed, when known.
    public var sql: String? {
        get { context.value.sql }
        set { update { $0.sql = newValue } }
    }
    /// The error this one wraps, when it wraps one. Not part of equality.
    public var underlying: (any Error)? {
        get { context.value.underlying }
        set { update { $0.underlying = newValue } }
    }
    /// `true` for failures that trying again later can cure: a lost or refused connection, a busy database,
    /// a serialization failure, a cancelled statement, a server out of resources.
    ///
    /// A live controller retries these with backoff (``ResultsStatus/resyncing(_:)``); any other failure stops
    /// it (``ResultsStatus/failed(_:)``).
    public var isTransient: Bool {
        get { context.value.isTransient }
        set { update { $0.isTransient = newValue } }
    }

    /// Creates an error; `isTransient` defaults to what `code` (and for ``Code/database``, the database code)
    /// implies.
    public init(
        _ code: Code, message: String, keyPath: String? = nil, entity: String? = nil, table: String? = nil,
        offset: Int? = nil, section: String? = nil, constraint: Constraint? = nil, constraintName: String? = nil,
        databaseCode: Int32? = nil, sql: String? = nil, underlying: (any Error)? = nil, isTransient: Bool? = nil
    ) {
        self.code = code
        self.context = ContextBox(Context(
            message: message, keyPath: keyPath, entity: entity, table: table, offset: offset, section: section,
            constraint: constraint, constraintName: constraintName, databaseCode: databaseCode, sql: sql,
            underlying: underlying,
            isTransient: isTransient ?? Self.defaultTransience(code, databaseCode: databaseCode, message: message)))
    }

    /// The sentence users see: the code's wording, the message and the position.
    public var description: String {
        let at = offset.map { " (offset \($0))" } ?? ""
        switch code.kind {
        case .invalidSchema: return "invalid schema: \(message)"
        case .invalidPredicate: return offset.map { "\(message) at offset \($0)" } ?? message
        case .unknownKey, .typeMismatch: return message + at
        case .unsupported: return "unsupported: \(message)"
        case .constraintViolation:
            return "\((constraint ?? .other).rawValue) constraint violated"
                + (constraintName.map { " (\($0))" } ?? "") + ": \(message)"
        case .busy: return "database is busy: \(message)"
        case .schemaMismatch: return "table '\(table ?? "")' does not match the schema: \(message)"
        case .connectionLost: return "connection lost: \(message)"
        case .tooManyConnections: return "too many connections: \(message)"
        case .serializationFailure: return "could not serialize the transaction: \(message)"
        case .invalidURL: return "invalid store URL: \(message)"
        case .recordMapping: return "cannot map \(entity ?? "?"): \(message)"
        case .invalidValue: return "invalid value: \(message)"
        case .diskFull: return "the database or disk is full: \(message)"
        case .readOnly: return "the database is read-only: \(message)"
        case .permissionDenied: return "permission denied: \(message)"
        case .database: return "database error \(databaseCode ?? 0): \(message)" + (sql.map { " in: \($0)" } ?? "")
        case .unknownEntity, .closed, .unknownRequestName, .sectionOrder: return message
        }
    }

    /// Errors are equal when their code and context are; ``underlying`` is not compared.
    public static func == (lhs: FetchKitError, rhs: FetchKitError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.keyPath == rhs.keyPath && lhs.entity == rhs.entity
            && lhs.table == rhs.table && lhs.offset == rhs.offset && lhs.section == rhs.section
            && lhs.constraint == rhs.constraint && lhs.constraintName == rhs.constraintName
            && lhs.databaseCode == rhs.databaseCode && lhs.sql == rhs.sql && lhs.isTransient == rhs.isTransient
    }

    /// Hashes the code and message (equal errors have equal ones).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    private static func defaultTransience(_ code: Code, databaseCode: Int32?, message: String) -> Bool {
        switch code.kind {
        case .connectionLost, .busy, .tooManyConnections, .serializationFailure:
            return true
        case .database:
            // SQLite: SQLITE_NOMEM, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_PROTOCOL (extended codes
            // keep the primary code in the low byte). PostgreSQL (code 0): query cancelled (57014),
            // insufficient resources (53…), system errors (58…).
            let code = databaseCode ?? 0
            if code != 0 { return [7, 10, 13, 14, 15].contains(code & 0xFF) }
            return ["SQLSTATE 57014", "SQLSTATE 53", "SQLSTATE 58"].contains { message.hasPrefix($0) }
        default:
            return false
        }
    }
}
