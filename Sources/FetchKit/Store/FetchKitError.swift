/// The one error type FetchKit throws: what went wrong (its ``code``) and where (its context).
///
/// Match on the code, read the message or the whole description:
///
/// ```swift
/// do {
///     _ = try FetchPredicate(format: "compleet == YES").validated(for: todo, in: schema)
/// } catch let error as FetchKitError where error.code == .unknownKey {
///     print(error)            // unknown key 'compleet' on entity Todo (offset 0)
///     print(error.keyPath)    // Optional("compleet")
/// }
/// ```
///
/// `FetchKitError` is a struct, not an enum, so that a minor release can add codes and context without
/// breaking a `switch`: switch over ``code`` and keep a `default:`.
@dynamicMemberLookup
public struct FetchKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure an error is. New codes may be added in minor releases.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Kind: String, Sendable, Hashable {
            case invalidSchema, unknownEntity, invalidPredicate, unknownKey, typeMismatch, unsupported
            case constraintViolation, busy, schemaMismatch, connectionLost, tooManyConnections
            case serializationFailure, invalidURL, closed, recordMapping, invalidValue, unknownRequestName
            case diskFull, readOnly, permissionDenied, sectionOrder, database, inconsistency, storeFileMissing
        }

        fileprivate let kind: Kind

        fileprivate init(_ kind: Kind) { self.kind = kind }

        /// The code's name, as written in Swift (`constraintViolation`).
        public var description: String { kind.rawValue }

        /// A schema declaration is inconsistent.
        public static let invalidSchema = Code(.invalidSchema)
        /// No entity has this name (``FetchKitError/Context-swift.struct/entity``).
        public static let unknownEntity = Code(.unknownEntity)
        /// A predicate is malformed: its format string does not parse, an argument is missing, left over or of
        /// the wrong kind, it nests too deeply, or it does not fit the entity's key paths
        /// (``FetchKitError/Context-swift.struct/offset``, where the input has one).
        public static let invalidPredicate = Code(.invalidPredicate)
        /// A key path names no attribute or relationship of an entity (``FetchKitError/Context-swift.struct/keyPath``,
        /// ``FetchKitError/Context-swift.struct/entity``).
        public static let unknownKey = Code(.unknownKey)
        /// A value does not fit the attribute it is compared with or written to
        /// (``FetchKitError/Context-swift.struct/keyPath``).
        public static let typeMismatch = Code(.typeMismatch)
        /// A construct FetchKit refuses: well formed, but not compiled (a bitwise operator, `FUNCTION`, an index,
        /// `MATCHES`) or not for this backend (``FetchKitError/Context-swift.struct/construct``,
        /// ``FetchKitError/Context-swift.struct/offset`` when it comes from a format string); the message names
        /// it.
        public static let unsupported = Code(.unsupported)
        /// A write violated a constraint (``FetchKitError/Context-swift.struct/constraint``,
        /// ``FetchKitError/Context-swift.struct/constraintName``).
        public static let constraintViolation = Code(.constraintViolation)
        /// The database stayed locked by another connection or process past the busy timeout.
        public static let busy = Code(.busy)
        /// An existing table does not match the schema (``FetchKitError/Context-swift.struct/table``).
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
        /// A row could not be turned into a record, or a record into a row
        /// (``FetchKitError/Context-swift.struct/entity``).
        public static let recordMapping = Code(.recordMapping)
        /// A value cannot be stored (for example NaN, or text containing NUL).
        public static let invalidValue = Code(.invalidValue)
        /// A ``MultiResultsController`` has no fetch request of this name
        /// (``FetchKitError/Context-swift.struct/requestName``,
        /// ``FetchKitError/Context-swift.struct/knownRequestNames``).
        public static let unknownRequestName = Code(.unknownRequestName)
        /// The database or its disk is full; the write was rolled back whole.
        public static let diskFull = Code(.diskFull)
        /// The database is read-only (a read-only file or connection, a read-only transaction or replica).
        public static let readOnly = Code(.readOnly)
        /// The database refused for lack of a right; the message says which.
        public static let permissionDenied = Code(.permissionDenied)
        /// The database file an open store writes to is no longer at its path: deleted, moved away, or replaced
        /// by another file (the message names the path). Writing on would write into a file no one can open again,
        /// so every later write is refused and live controllers fail; trying again does not help: close the store
        /// and open the file anew.
        public static let storeFileMissing = Code(.storeFileMissing)
        /// Rows of one section are not adjacent in the request's order (``FetchKitError/Context-swift.struct/keyPath``,
        /// ``FetchKitError/Context-swift.struct/section``): sort by the section key path first, case-sensitively.
        /// A controller refuses a request whose order can split a section before it fetches (`section` is `nil`
        /// then).
        public static let sectionOrder = Code(.sectionOrder)
        /// Any other error the database reported (``FetchKitError/Context-swift.struct/databaseCode``,
        /// ``FetchKitError/Context-swift.struct/sql``).
        public static let database = Code(.database)
        /// FetchKit found its own state contradicting itself (a bug to report): the controller stopped rather
        /// than show results it cannot vouch for; the message says what did not hold.
        public static let inconsistency = Code(.inconsistency)
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

    /// Where and why: read its fields straight off the error (`error.message`, `error.keyPath`…).
    public var context: Context { box.context }

    /// The context, behind one reference so the error stays two words: the parser throws it (typed) through
    /// deeply nested calls, where a wide error would widen every frame.
    private let box: ContextBox

    /// What an error says beyond its code. New fields may be added in minor releases.
    public struct Context: Sendable {
        /// What happened, in words: the detail the ``FetchKitError/description`` is made of (without the code's
        /// wording and the position).
        public let message: String
        /// The key path concerned (an unknown key, a mismatched attribute, a section key path), when there is one.
        public let keyPath: String?
        /// The entity concerned, when there is one.
        public let entity: String?
        /// The table concerned, when there is one.
        public let table: String?
        /// The position in the predicate format string, in UTF-8 bytes, when the error comes from one.
        public let offset: Int?
        /// The construct refused (``FetchKitError/Code/unsupported``), as the message names it: `the bitwise
        /// operator '&'`, `MATCHES`.
        public let construct: String?
        /// The request name asked for (``FetchKitError/Code/unknownRequestName``).
        public let requestName: String?
        /// The request names there are, sorted (``FetchKitError/Code/unknownRequestName``).
        public let knownRequestNames: [String]?
        /// The section value concerned (``FetchKitError/Code/sectionOrder``).
        public let section: String?
        /// The kind of constraint violated (``FetchKitError/Code/constraintViolation``).
        public let constraint: Constraint?
        /// The constraint (or column) violated, when the backend says.
        public let constraintName: String?
        /// The database's own error code (0 when the database reports a textual code, such as a SQLSTATE in the
        /// message).
        public let databaseCode: Int32?
        /// The SQL statement that failed, when known.
        public let sql: String?
        /// The SQL that fixes the problem, when FetchKit knows it: for a ``Code/schemaMismatch`` at open, the
        /// schema plan's DDL (``SchemaPlan/description``), with the changes it refuses as comments. The error's
        /// ``FetchKitError/description`` ends with it on one line.
        public let suggestedSQL: String?
        /// The error this one wraps, when it wraps one. Not part of equality.
        public let underlying: (any Error)?
        /// `true` for failures that trying again later can cure: a lost or refused connection, a busy database,
        /// a serialization failure, a cancelled statement, a server out of resources.
        ///
        /// A live controller retries these with backoff (``ResultsStatus/resyncing(_:)``); any other failure
        /// stops it (``ResultsStatus/failed(_:)``).
        public let isTransient: Bool
    }

    private final class ContextBox: Sendable {
        let context: Context
        init(_ context: Context) { self.context = context }
    }

    /// A field of the error's ``context``, read as the error's own (`error.message`).
    public subscript<T>(dynamicMember keyPath: KeyPath<Context, T>) -> T { box.context[keyPath: keyPath] }

    /// Creates an error; `isTransient` defaults to what `code` implies.
    ///
    /// The core reads no database's codes: a backend that raises ``Code/database`` for a failure that trying
    /// again can cure (an I/O error, a cancelled statement, a server out of resources) says so with
    /// `isTransient: true`.
    public init(
        _ code: Code, message: String, keyPath: String? = nil, entity: String? = nil, table: String? = nil,
        offset: Int? = nil, construct: String? = nil, requestName: String? = nil, knownRequestNames: [String]? = nil,
        section: String? = nil, constraint: Constraint? = nil, constraintName: String? = nil,
        databaseCode: Int32? = nil, sql: String? = nil, underlying: (any Error)? = nil, isTransient: Bool? = nil,
        suggestedSQL: String? = nil
    ) {
        self.code = code
        self.box = ContextBox(
            Context(
                message: message, keyPath: keyPath, entity: entity, table: table, offset: offset, construct: construct,
                requestName: requestName, knownRequestNames: knownRequestNames, section: section,
                constraint: constraint, constraintName: constraintName, databaseCode: databaseCode, sql: sql,
                suggestedSQL: suggestedSQL, underlying: underlying,
                isTransient: isTransient ?? Self.defaultTransience(code)))
    }

    /// The sentence users see: the code's wording, the message and the position. Control and bidirectional
    /// characters (from a database's names and messages) are written as `\u{…}` escapes, line breaks kept;
    /// the names a message quotes are escaped whole (see the context fields for the exact text).
    public var description: String { SafeText.escaped(sentence, keepingLineBreaks: true) }

    /// The code's wording, the message and the position, as they are.
    private var sentence: String {
        let c = context
        let at = c.offset.map { " (offset \($0))" } ?? ""
        switch code.kind {
        case .invalidSchema: return "invalid schema: \(c.message)"
        case .invalidPredicate: return c.offset.map { "\(c.message) at offset \($0)" } ?? c.message
        case .unknownKey, .typeMismatch: return c.message + at
        case .unsupported: return "unsupported: \(c.message)" + (c.offset.map { " at offset \($0)" } ?? "")
        case .constraintViolation:
            return "\((c.constraint ?? .other).rawValue) constraint violated"
                + (c.constraintName.map { " (\($0))" } ?? "") + ": \(c.message)"
        case .busy: return "database is busy: \(c.message)"
        case .schemaMismatch:
            return "table \(SafeText.quoted(c.table ?? "")) does not match the schema: \(c.message)"
                + (c.suggestedSQL.map { sql in
                    // One line, as a log line is: each line of the SQL (a statement or a comment) after the other.
                    "; to bring the database to the schema, run: " + sql.split(separator: "\n").joined(separator: " ")
                } ?? "")
        case .connectionLost: return "connection lost: \(c.message)"
        case .tooManyConnections: return "too many connections: \(c.message)"
        case .serializationFailure: return "could not serialize the transaction: \(c.message)"
        case .invalidURL: return "invalid store URL: \(c.message)"
        case .recordMapping: return "cannot map \(SafeText.escaped(c.entity ?? "?")): \(c.message)"
        case .invalidValue: return "invalid value: \(c.message)"
        case .diskFull: return "the database or disk is full: \(c.message)"
        case .readOnly: return "the database is read-only: \(c.message)"
        case .permissionDenied: return "permission denied: \(c.message)"
        case .storeFileMissing: return "the store's database file is missing: \(c.message)"
        case .database:
            return "database error \(c.databaseCode ?? 0): \(c.message)" + (c.sql.map { " in: \($0)" } ?? "")
        case .unknownEntity, .closed, .unknownRequestName, .sectionOrder: return c.message
        case .inconsistency: return "internal inconsistency: \(c.message)"
        }
    }

    /// Errors are equal when their code and context are; the underlying error and the suggested SQL (advice, not
    /// the failure) are not compared.
    public static func == (lhs: FetchKitError, rhs: FetchKitError) -> Bool {
        let l = lhs.context
        let r = rhs.context
        return lhs.code == rhs.code && l.message == r.message && l.keyPath == r.keyPath && l.entity == r.entity
            && l.table == r.table && l.offset == r.offset && l.construct == r.construct
            && l.requestName == r.requestName && l.knownRequestNames == r.knownRequestNames
            && l.section == r.section && l.constraint == r.constraint
            && l.constraintName == r.constraintName && l.databaseCode == r.databaseCode && l.sql == r.sql
            && l.isTransient == r.isTransient
    }

    /// Hashes the code and message (equal errors have equal ones).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(context.message)
    }

    /// Whether errors of `code` are transient unless the backend that raised one says otherwise: connection
    /// losses, a busy database, too many connections and serialization failures are; anything else, including
    /// ``Code/database``, is not. Backends classify their own database codes.
    private static func defaultTransience(_ code: Code) -> Bool {
        switch code.kind {
        case .connectionLost, .busy, .tooManyConnections, .serializationFailure: return true
        default: return false
        }
    }
}
