import CSQLite
import FetchKitBackendKit
import Foundation

/// Installs the change feed's C callbacks on the writer connection: the update, commit and rollback
/// hooks, the authorizer, the statement trace (for savepoints) and the SQL function the temporary
/// triggers call.
///
/// C function pointers cannot capture, so each callback finds the collector through SQLite's `void*`
/// context. The function registration holds a retained reference that SQLite releases (its destroy
/// callback) when the connection closes, after the last hook can run; the hooks borrow it.
enum SQLiteChangeHooks {
    static func install(_ collector: SQLiteChangeCollector, on connection: SQLiteConnection) throws {
        let db = connection.handle
        let retained = Unmanaged.passRetained(collector).toOpaque()
        // On failure SQLite calls the destroy callback itself, balancing the retain.
        let rc = sqlite3_create_function_v2(
            db, SQLiteTrackedTables.functionName, -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, retained,
            { context, count, arguments in
                guard let pointer = sqlite3_user_data(context) else { return }
                SQLiteChangeHooks.triggerFired(SQLiteChangeHooks.unwrap(pointer), count, arguments)
            }, nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<SQLiteChangeCollector>.fromOpaque(pointer).release()
            })
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: nil) }

        let context = Unmanaged.passUnretained(collector).toOpaque()
        sqlite3_update_hook(
            db,
            { context, operation, database, table, rowid in
                guard let context, let database, let table else { return }
                SQLiteChangeHooks.unwrap(context).rowChanged(
                    operation: operation, database: database, table: table, rowid: rowid)
            }, context)
        sqlite3_commit_hook(
            db,
            { context in
                if let context { SQLiteChangeHooks.unwrap(context).commitStarted() }
                return 0  // never turn the commit into a rollback
            }, context)
        sqlite3_rollback_hook(
            db,
            { context in
                if let context { SQLiteChangeHooks.unwrap(context).rolledBack() }
            }, context)
        let authorizerResult = sqlite3_set_authorizer(
            db,
            { context, action, first, _, database, _ in
                guard let context else { return SQLITE_OK }
                return SQLiteChangeHooks.unwrap(context).authorize(action: action, table: first, database: database)
            }, context)
        guard authorizerResult == SQLITE_OK else { throw connection.error(authorizerResult, sql: nil) }
        let traceResult = sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context, let text else { return 0 }
                SQLiteChangeHooks.unwrap(context).statementStarted(sql: text.assumingMemoryBound(to: CChar.self))
                return 0
            }, context)
        guard traceResult == SQLITE_OK else { throw connection.error(traceResult, sql: nil) }
    }

    private static func unwrap(_ pointer: UnsafeMutableRawPointer) -> SQLiteChangeCollector {
        Unmanaged<SQLiteChangeCollector>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// `fetchkit_change(table, operation, key[, newKey])`, or `fetchkit_change(table, reference, value…)`, called
    /// by the temporary triggers.
    private static func triggerFired(
        _ collector: SQLiteChangeCollector, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
    ) {
        if count >= 3, let arguments, let tableArgument = arguments[0], let operationArgument = arguments[1],
            sqlite3_value_int64(operationArgument) == Int64(SQLiteChangeLog.Operation.reference.rawValue)
        {
            let values = (2..<Int(count)).map { index in arguments[index].map(value) ?? .null }
            collector.referencesFired(table: Int(clamping: sqlite3_value_int64(tableArgument)), values: values)
            return
        }
        guard count >= 3, let arguments, let tableArgument = arguments[0], let operationArgument = arguments[1],
            let keyArgument = arguments[2],
            let operation = SQLiteChangeLog.Operation(
                rawValue: UInt8(clamping: sqlite3_value_int64(operationArgument))),
            operation != .wholeTable
        else { return }
        let newKey = count >= 4 ? arguments[3].map(value) : nil
        collector.triggerFired(
            table: Int(clamping: sqlite3_value_int64(tableArgument)), operation: operation, key: value(keyArgument),
            newKey: newKey)
    }

    /// An SQL argument as a ``Value``, by its storage class.
    private static func value(_ argument: OpaquePointer) -> Value {
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT:
            return .double(sqlite3_value_double(argument))
        case SQLITE_TEXT:
            let bytes = sqlite3_value_text(argument)
            let count = Int(sqlite3_value_bytes(argument))
            let buffer = UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count)
            return .text(String(decoding: buffer, as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(argument) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: Int(sqlite3_value_bytes(argument))))
        default:
            return .null
        }
    }
}
