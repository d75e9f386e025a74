import FetchKitBackendKit
import Logging

/// The change feed's side of the writer connection: collects each transaction's row changes from
/// the hooks and publishes them once the transaction has committed.
///
/// The store's transaction boundary (`SQLiteStore+Write.swift`) drives it: ``didBegin(on:)`` after
/// `BEGIN IMMEDIATE`, ``willCommit(on:)`` before `COMMIT`, ``didCommit(on:)`` after `COMMIT` returns
/// (the changes are visible to new reads by then) and ``didFail(on:)`` after a rollback. The hooks feed
/// it in between (`SQLiteChangeCollector+Hooks.swift`, installed by ``SQLiteChangeHooks``).
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
    let feed: ChangeFeed
    private let logger: Logger
    // Shared with the hook entry points (+Hooks), hence not private.
    var tables: SQLiteTrackedTables
    var log = SQLiteChangeLog()
    /// Changes committed outside the store's `COMMIT` (an autocommit statement), not yet published.
    var strayCommits: [[String: TableChange]] = []
    /// Set between ``willCommit(on:)`` and the end of the write: a commit now is the store's own.
    var isCommitting = false
    private var schemaVersionAtBegin: Int64?
    private var totalChangesAtBegin: Int64 = 0
    private var catalogWasStale = false
    private var needsRefresh = false
    /// `PRAGMA data_version` on the writer when last read: only other connections' commits change it.
    private var dataVersion: Int64?
    /// The table a `DROP TABLE` being prepared removes (its `SQLITE_DELETE` must not be ignored).
    var droppingTable: Int?

    init(schema: Schema, feed: ChangeFeed, logger: Logger) {
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
            feed.publish(log.tableChanges(names: tables.names, references: tables.references))
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

    /// Re-reads the tables and re-creates the triggers, outside any transaction (a rollback would
    /// take the triggers with it); inside one (a failed rollback) it waits for the next chance.
    private func refresh(on connection: SQLiteConnection) {
        guard !connection.isInTransaction else { return }
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
}
