import CSQLite
import FetchKit

// The collector's entry points for SQLite's callbacks. They run on the writer thread, inside SQLite
// calls: no SQL may run here (SQLite forbids using the connection from its hooks).
extension SQLiteChangeCollector {
    /// The update hook: a row of `table` in `database` was inserted, updated or deleted.
    func rowChanged(operation: Int32, database: UnsafePointer<CChar>, table: UnsafePointer<CChar>, rowid: Int64) {
        guard Self.isMain(database), let index = tables.index(ofStoredName: table),
            tables.tables[index].keyIsRowid
        else { return }
        switch operation {
        case SQLITE_INSERT: record(.insert, table: index, key: .integer(rowid))
        case SQLITE_UPDATE: record(.update, table: index, key: .integer(rowid))
        case SQLITE_DELETE: record(.delete, table: index, key: .integer(rowid))
        default: break
        }
    }

    /// The triggers' function: `operation` on the row with primary key `key` (`newKey` after an update).
    func triggerFired(table index: Int, operation: SQLiteChangeLog.Operation, key: Value, newKey: Value?) {
        guard tables.tables.indices.contains(index) else { return }
        let keyType = tables.tables[index].entity.primaryKey.type
        let key = keyType.coerce(key) ?? key
        if operation == .update, let newKey, newKey != key {
            // The key itself changed: the old key is gone.
            record(.delete, table: index, key: key)
            record(.update, table: index, key: keyType.coerce(newKey) ?? newKey)
        } else {
            record(operation, table: index, key: key)
        }
    }

    /// The reference triggers' function: a changed row of the table at `index` held `values` in its followed
    /// foreign keys (``SQLiteTrackedTables/references``), in order, before and/or after the change.
    func referencesFired(table index: Int, values: [Value]) {
        guard tables.references.indices.contains(index) else { return }
        let count = tables.references[index].count
        guard count > 0 else { return }
        for (position, value) in values.enumerated() {
            log.appendReference(value, table: index, column: position % count)
        }
    }

    private func record(_ operation: SQLiteChangeLog.Operation, table index: Int, key: Value) {
        log.append(operation, table: index, key: key)
        if operation != .delete, tables.tables[index].hasOtherUniqueIndex {
            log.appendWholeTable(index)
        }
    }

    /// The trace hook: a statement starts running (`sql` is its text, or a `--` comment for a trigger).
    func statementStarted(sql: UnsafePointer<CChar>) {
        guard SQLiteSavepointCommand.mayBe(sql),
            let command = SQLiteSavepointCommand(sql: String(cString: sql))
        else { return }
        log.apply(command)
    }

    /// The commit hook: SQLite is about to commit.
    func commitStarted() {
        guard !isCommitting else { return }
        // Not the store's COMMIT: an autocommit statement (outside any write, or after SQLite rolled
        // a write back on its own). Its changes are committed when the statement ends; publish them
        // at the next opportunity (the end of the current write, the next write, the next poll).
        if !log.isEmpty { strayCommits.append(log.tableChanges(names: tables.names, references: tables.references)) }
        log.removeAll()
    }

    /// The rollback hook: the transaction was rolled back.
    func rolledBack() {
        log.removeAll()
    }

    /// The authorizer: `SQLITE_IGNORE` for deleting rows of a schema table (so SQLite deletes them one
    /// by one, reporting each, instead of truncating), `SQLITE_OK` for everything else.
    ///
    /// `DROP TABLE t` asks for `SQLITE_DROP_TABLE` then `SQLITE_DELETE` on `t`, and ignoring that
    /// delete would silently skip the drop: it is allowed.
    func authorize(action: Int32, table: UnsafePointer<CChar>?, database: UnsafePointer<CChar>?) -> Int32 {
        let dropping = droppingTable
        droppingTable = nil
        guard let table, let database, Self.isMain(database) else { return SQLITE_OK }
        switch action {
        case SQLITE_DROP_TABLE:
            droppingTable = tables.index(ofStoredName: table)
            return SQLITE_OK
        case SQLITE_DELETE:
            guard let index = tables.index(ofStoredName: table), index != dropping else { return SQLITE_OK }
            return SQLITE_IGNORE
        default:
            return SQLITE_OK
        }
    }

    private static func isMain(_ database: UnsafePointer<CChar>) -> Bool {
        database[0] == 0x6D && database[1] == 0x61 && database[2] == 0x69 && database[3] == 0x6E && database[4] == 0
    }
}
