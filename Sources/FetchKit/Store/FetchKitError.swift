/// The one error type FetchKit throws: it says what went wrong and where.
///
/// ```swift
/// do {
///     _ = try FetchPredicate(format: "compleet == YES").validated(for: todo, in: schema)
/// } catch let error as FetchKitError {
///     print(error)   // unknown key 'compleet' on entity Todo (offset 0)
/// }
/// ```
public enum FetchKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of constraint a write can violate.
    public enum Constraint: String, Sendable, Hashable {
        case unique, primaryKey, foreignKey, notNull, check, other
    }

    /// A schema declaration is inconsistent.
    case invalidSchema(String)
    /// No entity has this name.
    case unknownEntity(String)
    /// A predicate format string does not parse, or an argument is missing; `offset` is in UTF-8 bytes.
    case invalidPredicate(String, offset: Int?)
    /// A key path names no attribute or relationship of `entity`.
    case unknownKey(String, entity: String, offset: Int?)
    /// A value does not fit the attribute it is compared with or written to.
    case typeMismatch(key: String, expected: AttributeType, got: String, offset: Int?)
    /// A construct FetchKit cannot translate for this backend; the text names it.
    case unsupported(String)
    /// A write violated a constraint; `name` is the constraint (or column) when the backend says.
    case constraintViolation(Constraint, name: String?, message: String)
    /// The database stayed locked by another connection or process past the busy timeout.
    case busy(String)
    /// An existing table does not match the schema.
    case schemaMismatch(table: String, detail: String)
    /// The connection to the database is gone (or could not be made).
    case connectionLost(String)
    /// The server refused a connection because it has too many.
    case tooManyConnections(String)
    /// The transaction could not be serialized with concurrent ones (or deadlocked); running it again may
    /// succeed.
    case serializationFailure(String)
    /// A store URL does not parse or names no known backend; the text never contains the password.
    case invalidURL(String)
    /// The store is closed.
    case closed
    /// A row could not be turned into a record, or a record into a row.
    case recordMapping(entity: String, detail: String)
    /// A value cannot be stored (for example NaN, or text containing NUL).
    case invalidValue(String)
    /// A ``MultiResultsController`` has no fetch request of this name; `known` lists the names it has, sorted.
    case unknownRequestName(String, known: [String])
    /// The database or its disk is full (SQLite's `SQLITE_FULL`, PostgreSQL's `disk_full`); the write was
    /// rolled back whole.
    case diskFull(String)
    /// The database is read-only (a read-only file or connection, a read-only transaction or replica).
    case readOnly(String)
    /// The database refused for lack of a right; the text says which (`permission denied for table todo`).
    case permissionDenied(String)
    /// Rows of one section are not adjacent in the request's order: `section` (a value of the section key
    /// path `key`, compared byte for byte as the database stores it) appears in two places. Sort by `key`
    /// first, case-sensitively, so that each section's rows stay together.
    case sectionOrder(key: String, section: String)
    /// Any other error the database reported, with its code and the statement.
    case database(code: Int32, message: String, sql: String?)

    public var description: String {
        switch self {
        case .invalidSchema(let message):
            return "invalid schema: \(message)"
        case .unknownEntity(let name):
            return "unknown entity '\(name)'"
        case .invalidPredicate(let message, let offset):
            return offset.map { "\(message) at offset \($0)" } ?? message
        case .unknownKey(let key, let entity, let offset):
            return "unknown key '\(key)' on entity \(entity)" + (offset.map { " (offset \($0))" } ?? "")
        case .typeMismatch(let key, let expected, let got, let offset):
            return "'\(key)' is \(expected), got \(got)" + (offset.map { " (offset \($0))" } ?? "")
        case .unsupported(let what):
            return "unsupported: \(what)"
        case .constraintViolation(let kind, let name, let message):
            return "\(kind.rawValue) constraint violated" + (name.map { " (\($0))" } ?? "") + ": \(message)"
        case .busy(let message):
            return "database is busy: \(message)"
        case .schemaMismatch(let table, let detail):
            return "table '\(table)' does not match the schema: \(detail)"
        case .connectionLost(let message):
            return "connection lost: \(message)"
        case .tooManyConnections(let message):
            return "too many connections: \(message)"
        case .serializationFailure(let message):
            return "could not serialize the transaction: \(message)"
        case .invalidURL(let message):
            return "invalid store URL: \(message)"
        case .closed:
            return "the store is closed"
        case .recordMapping(let entity, let detail):
            return "cannot map \(entity): \(detail)"
        case .invalidValue(let message):
            return "invalid value: \(message)"
        case .unknownRequestName(let name, let known):
            return "no fetch request named '\(name)' (known: \(known.joined(separator: ", ")))"
        case .diskFull(let message):
            return "the database or disk is full: \(message)"
        case .readOnly(let message):
            return "the database is read-only: \(message)"
        case .permissionDenied(let message):
            return "permission denied: \(message)"
        case .sectionOrder(let key, let section):
            return "section '\(section)' of key path '\(key)' appears twice: its rows are not together in the "
                + "request's order (sections are told apart byte for byte, as the database stores them); sort by "
                + "'\(key)' first and case-sensitively"
        case .database(let code, let message, let sql):
            return "database error \(code): \(message)" + (sql.map { " in: \($0)" } ?? "")
        }
    }
}
