import CSQLite
import FetchKit

/// A prepared statement, confined (like its connection) to the connection's thread.
final class SQLiteStatement {
    /// The `sqlite3_stmt*` handle.
    let handle: OpaquePointer
    /// The `sqlite3*` handle of the connection that prepared it.
    let connection: OpaquePointer
    /// The SQL text (the statement cache's key).
    let sql: String
    /// How many `?` parameters the statement takes.
    let parameterCount: Int32
    /// How many columns each row has.
    let columnCount: Int32

    init(handle: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
        self.parameterCount = sqlite3_bind_parameter_count(handle)
        self.columnCount = sqlite3_column_count(handle)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Advances to the next row: `true` when a row is available, `false` when the statement is done.
    ///
    /// - Throws: the mapped ``FetchKitError`` (constraint, busy, …).
    @inline(__always)
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw error(rc)
    }

    /// Rewinds the statement so it can run again (bindings stay).
    func reset() {
        // The result repeats the last step's error, which step() already reported.
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to `NULL`.
    func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// The name of column `index`.
    func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// Whether the statement leaves the database unchanged (a `SELECT`).
    var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The error for result code `rc`, with the connection's message and this statement's SQL.
    func error(_ rc: Int32) -> FetchKitError {
        SQLiteErrorMapping.error(code: rc, on: connection, sql: sql)
    }
}
