import CSQLite
import FetchKit
import Logging

/// The change feed's side of the writer connection: collects each transaction's row changes from
/// the hooks and publishes them once the transaction has committed.
///
/// The store's transaction boundary (`SQLiteStore+Write.swift`) drives it: ``didBegin(on:)`` after
/// `BEGIN IMMEDIATE`, ``willCommit(on:)`` before `COMMIT`, ``didCommit(on:)`` after `COMMIT` returns
/// (the changes are visible to new reads by then) and ``didFail()`` after a rollback. The hooks feed
/// it in between (see ``SQLiteChangeHooks``).
///
/// What is reported:
/// - every row an `INSERT`, `UPDATE` or `DELETE` touches, foreign-key actions (`ON DELETE SET NULL`)
///   included; a `DELETE` without `WHERE` row by row (the authorizer turns SQLite's truncate
///   optimisation off for the schema's tables);
/// - changes inside a rolled-back transaction are dropped, and so are those after a savepoint that
///   `ROLLBACK TO` reverts;
/// - conservatively, more than changed: a statement that fails inside a transaction that later
///   commits has its rows reported even though SQLite undid them; a row inserted and deleted in one
///   transaction is reported deleted. A consumer re-reads the keys it is given, so this costs a
///   lookup, never a wrong result;
/// - whole tables where rows cannot be named: a table with another UNIQUE index (REPLACE may delete
///   rows silently), and every table in a transaction that changed the schema (or ran while the
///   feed's view of the schema was stale).
final class SQLiteChangeCollector: @unchecked Sendable {
    // @unchecked: everything but `feed` (itself Sendable) is used only on the writer connection's
    // thread, where the hooks, the trigger function and the transaction boundary all run. Other
    // threads only hold the reference.

    /// Where committed changes go.
    let feed: SQLiteChangeFeed
    private let logger: Logger
    private var tables: SQLiteTrackedTables
    private var log = SQLiteChangeLog()
    /// Changes committed outside the store's `COMMIT` (an autocommit statement), not yet published.
    private var strayCommits: [[String: TableChange]] = []
    /// Set between ``willCommit(on:)`` and the end of the write: a commit now is the store's own.
    private var isCommitting = false
    private var schemaVersionAtBegin: Int64?
    private var totalChangesAtBegin: Int64 = 0
    private var catalogWasStale = false
    private var needsRefresh = false
    /// `PRAGMA data_version` on the writer when last read: only other connections' commits change it.
    private var dataVersion: Int64?
    /// The table a `DROP TABLE` being prepared removes (its `SQLITE_DELETE` must not be ignored).
    private var droppingTable: Int?

    init(schema: Schema, feed: SQLiteChangeFeed, logger: Logger) {
        self.tables = SQLiteTrackedTables(schema: schema)
        self.feed = feed
        self.logger = logger
    }

    // MARK: - Lifecycle (writer thread)

    /// Installs the hooks on the writer connection, reads the tables, creates the triggers and
    /// remembers the data version. Runs outside any transaction.
    func install(on connection: SQLiteConnection) throws {
        try SQLiteChangeHooks.install(self, on: connection)
        try tables.refresh(on: connection)
        dataVersion = try connection.scalarInteger("PRAGMA main.data_version")
    }

    /// After `BEGIN IMMEDIATE`: starts collecting.
    func didBegin(on connection: SQLiteConnection) {
        publishStrayCommits()
        log.removeAll()
        isCommitting = false
        needsRefresh = false
        schemaVersionAtBegin = try? connection.scalarInteger("PRAGMA main.schema_version")
        // Another connection changed the schema since the tables were read: a trigger may be gone.
        catalogWasStale = schemaVersionAtBegin == nil || schemaVersionAtBegin != tables.schemaVersion
        totalChangesAtBegin = connection.totalChanges
    }

    /// Before `COMMIT`: marks every table whole-table when the schema changed (or the tables were
    /// stale and something changed).
    func willCommit(on connection: SQLiteConnection) {
        let version = try? connection.scalarInteger("PRAGMA main.schema_version")
        let schemaChanged = version == nil || version != schemaVersionAtBegin
        if schemaChanged || (catalogWasStale && connection.totalChanges != totalChangesAtBegin) {
            for index in tables.names.indices { log.appendWholeTable(index) }
        }
        needsRefresh = schemaChanged || catalogWasStale
        isCommitting = true
    }

    /// After `COMMIT` returned: publishes the transaction's changes (nothing when it changed nothing).
    func didCommit(on connection: SQLiteConnection) {
        isCommitting = false
        publishStrayCommits()
        if !log.isEmpty {
            feed.publish(log.tableChanges(names: tables.names))
        }
        log.removeAll()
        if needsRefresh { refresh(on: connection) }
    }

    /// After the write rolled back: drops its changes.
    func didFail(on connection: SQLiteConnection) {
        isCommitting = false
        log.removeAll()
        publishStrayCommits()
        if needsRefresh || catalogWasStale { refresh(on: connection) }
    }

    /// Publishes a resync when another connection or process committed since the last check.
    ///
    /// - Throws: the database error reading `PRAGMA data_version`.
    func checkDataVersion(on connection: SQLiteConnection) throws {
        publishStrayCommits()
        let version = try connection.scalarInteger("PRAGMA main.data_version")
        if let dataVersion, version != dataVersion {
            feed.publishResync()
        }
        dataVersion = version
    }

    private func refresh(on connection: SQLiteConnection) {
        needsRefresh = false
        do {
            try tables.refresh(on: connection)
        } catch {
            // The tables stay marked stale: the next write reports every table whole-table and retries.
            logger.warning("change feed could not re-read the schema", metadata: ["error": "\(error)"])
        }
    }

    private func publishStrayCommits() {
        guard !strayCommits.isEmpty else { return }
        for change in strayCommits { feed.publish(change) }
        strayCommits.removeAll()
    }

    // MARK: - Hook entry points (writer thread, inside SQLite calls: no SQL may run here)

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
        if !log.isEmpty { strayCommits.append(log.tableChanges(names: tables.names)) }
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
