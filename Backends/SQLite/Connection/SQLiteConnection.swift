import CSQLite
import FetchKit
import FetchKitBackendKit

/// One SQLite connection, confined to the thread that opened it.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: SQLite does no locking of its own, so every call
/// on a connection (and its statements) must come from its ``ConnectionThread``.
final class SQLiteConnection {
    /// How to open a connection.
    struct Configuration: Sendable {
        /// A file path, or `nil` for a private in-memory database.
        var path: String?
        /// Open read-only (pool readers).
        var readOnly: Bool
        /// How long a statement waits for a lock held by another connection.
        var busyTimeoutMilliseconds: Int32
        /// How many prepared statements the connection keeps.
        var statementCacheCapacity: Int
    }

    /// The `sqlite3*` handle.
    let handle: OpaquePointer
    /// Prepared statements by SQL text.
    let statements: SQLiteStatementCache
    /// Where the connection points (for messages).
    let location: String
    private var isClosed = false

    private init(handle: OpaquePointer, location: String, cacheCapacity: Int) {
        self.handle = handle
        self.location = location
        self.statements = SQLiteStatementCache(capacity: cacheCapacity)
    }

    deinit {
        close()
    }

    /// Opens and configures a connection: extended result codes, busy timeout, the FetchKit SQL functions,
    /// `foreign_keys` and `case_sensitive_like` on; WAL and `synchronous=NORMAL` for a writable file.
    ///
    /// - Throws: ``FetchKitError/Code/readOnly`` naming the file when it, or its directory, cannot be written
    ///   (a read-only file system, a write-protected file or directory); else the database error.
    static func open(_ configuration: Configuration) throws -> SQLiteConnection {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= configuration.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let location = configuration.path ?? ":memory:"
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(location, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            if let path = configuration.path, !configuration.readOnly {
                // A directory or file system that cannot be written is .readOnly, not a (transient) CANTOPEN.
                throw SQLiteErrorMapping.error(
                    code: rc, message: "cannot open \(SafeText.quoted(location)): \(message)", sql: nil, path: path,
                    accessError: SQLiteErrorMapping.accessError(writing: path))
            }
            throw SQLiteErrorMapping.error(
                code: rc, message: "cannot open \(SafeText.quoted(location)): \(message)", sql: nil)
        }
        let connection = SQLiteConnection(
            handle: db, location: location, cacheCapacity: configuration.statementCacheCapacity)
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, configuration.busyTimeoutMilliseconds)
        try connection.registerFunctions()
        if configuration.path != nil && !configuration.readOnly {
            let mode = try connection.scalarText("PRAGMA journal_mode=WAL")
            guard mode?.lowercased() == "wal" else {
                throw FetchKitError.database(
                    code: SQLITE_ERROR,
                    message: "\(SafeText.quoted(location)) cannot use WAL (journal mode is \(mode ?? "unknown"))",
                    sql: "PRAGMA journal_mode=WAL")
            }
            try connection.run("PRAGMA synchronous=NORMAL")
        }
        try connection.run("PRAGMA foreign_keys=ON")
        try connection.run("PRAGMA case_sensitive_like=ON")
        return connection
    }

    /// Finalizes every cached statement and closes the connection. Later calls do nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether a transaction is open (`BEGIN` without `COMMIT`/`ROLLBACK` yet).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The rowid of the last successful insert on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last completed `INSERT`, `UPDATE` or `DELETE`.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rows changed since the connection opened (all statements, triggers included).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }
}

// MARK: - Running statements

extension SQLiteConnection {
    /// Runs `body` with the cached statement for `sql` (prepared on first use), then resets it.
    ///
    /// - Complexity: O(1) when the statement is cached.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement = try statements.checkOut(sql) ?? prepare(sql, persistent: statements.capacity > 0)
        defer { statements.checkIn(statement) }
        return try body(statement)
    }

    /// Runs one statement with `bindings`, discarding any rows.
    func run(_ sql: String, _ bindings: [Value] = []) throws {
        try withStatement(sql) { statement in
            try statement.bind(bindings)
            while try statement.step() {}
        }
    }

    /// Runs a statement and returns the text of its first row's first column.
    func scalarText(_ sql: String, _ bindings: [Value] = []) throws -> String? {
        try withStatement(sql) { statement in
            try statement.bind(bindings)
            guard try statement.step() else { return nil }
            if case .text(let text) = statement.value(at: 0, as: .text) { return text }
            return nil
        }
    }

    /// Runs a statement and returns the integer in its first row's first column.
    func scalarInteger(_ sql: String, _ bindings: [Value] = []) throws -> Int64? {
        try withStatement(sql) { statement in
            try statement.bind(bindings)
            guard try statement.step() else { return nil }
            if case .integer(let value) = statement.value(at: 0, as: .integer) { return value }
            return nil
        }
    }

    /// Prepares exactly one statement; SQL holding a second statement after the first is rejected.
    func prepare(_ sql: String, persistent: Bool) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        var trailing = ""
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
            if let tail, tail.pointee != 0 { trailing = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
        guard let statement else {
            throw FetchKitError.invalidValue("the SQL text holds no statement: \(sql)")
        }
        let prepared = SQLiteStatement(handle: statement, connection: handle, sql: sql)
        if !trailing.isEmpty, try holdsStatement(trailing) {
            throw FetchKitError.unsupported("more than one SQL statement in one call: \(sql)")
        }
        return prepared
    }

    /// Whether `sql` holds a statement (not just whitespace and comments).
    private func holdsStatement(_ sql: String) throws -> Bool {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        // A syntax error in the tail still means the caller passed more than one statement.
        return rc != SQLITE_OK || statement != nil
    }
}

extension SQLiteConnection: DriverConnection {}
