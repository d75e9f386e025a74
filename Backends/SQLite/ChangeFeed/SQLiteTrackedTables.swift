@_spi(Backend) import FetchKit
import FetchKitBackendKit
import Foundation

/// What the change feed knows about the schema's tables on the writer connection, and the
/// temporary triggers it keeps there.
///
/// How a table's changed keys are learned depends on its primary key:
/// - **Rowid key** (an `INTEGER PRIMARY KEY` of a rowid table, every integer-keyed table FetchKit
///   creates): the update hook's rowid is the key. A temporary `AFTER UPDATE` trigger reports the
///   old key of a row whose key an `UPDATE` changed, which the update hook does not (it names only
///   the new rowid).
/// - **Any other key** (text keys, `WITHOUT ROWID` tables): the rowid the update hook names is not
///   the key, and a deleted row cannot be read back. Temporary `AFTER INSERT/UPDATE/DELETE`
///   triggers pass the key itself (`NEW."slug"`, `OLD."slug"`) to the feed's SQL function, so these
///   tables are reported key by key too, deletions included.
///
/// A table whose foreign key a to-many relationship follows (``Schema/referencedForeignKeys(of:)``) has three more
/// temporary triggers, reporting that key's values before and after each row change (``TableChange/references``).
///
/// Temporary triggers live only on the writer connection and fire only for its statements; other
/// connections' commits are seen through `PRAGMA data_version`.
struct SQLiteTrackedTables {
    /// One schema table.
    struct Table {
        let entity: Entity
        /// The name SQLite stores (and its hooks report), NUL-terminated; empty when the table is missing.
        var storedName: [CChar] = []
        /// Whether the update hook's rowid is the primary key.
        var keyIsRowid = false
        /// Whether a UNIQUE constraint or index other than the primary key's exists: an `INSERT` or
        /// `UPDATE` resolving a conflict with it by `REPLACE` deletes another row, which neither the
        /// update hook nor a trigger reports, so such a table's inserts and updates mark it whole-table.
        var hasOtherUniqueIndex = false
    }

    /// The SQL function the temporary triggers call: `fetchkit_change(table, operation, key[, newKey])`.
    static let functionName = "fetchkit_change"
    /// The prefix of every temporary trigger the feed creates.
    static let triggerPrefix = "fetchkit_change_"

    /// The schema's tables, in schema order (the feed's table index).
    private(set) var tables: [Table]
    /// The entity table names, by table index: the names a ``StoreChange`` uses.
    let names: [String]
    /// By table index, the foreign-key attributes whose values the feed reports (``TableChange/references``), and
    /// their columns.
    let references: [[String]]
    private let referenceColumns: [[String]]
    /// `PRAGMA schema_version` when the tables were last read; `nil` before, or after a failed refresh.
    private(set) var schemaVersion: Int64?

    init(schema: Schema) {
        tables = schema.entities.map { Table(entity: $0) }
        names = schema.entities.map(\.table)
        let followed = schema.entities.map { schema.referencedForeignKeys(of: $0) }
        references = followed.map { $0.map(\.name) }
        referenceColumns = followed.map { $0.map(\.column) }
    }

    /// The index of the table SQLite names `name` (as its hooks report it), if it is tracked.
    ///
    /// - Complexity: O(*t*) in the number of tables, without allocating.
    func index(ofStoredName name: UnsafePointer<CChar>) -> Int? {
        for index in tables.indices where !tables[index].storedName.isEmpty {
            let matches = tables[index].storedName.withUnsafeBufferPointer { stored in
                strcmp(stored.baseAddress!, name) == 0
            }
            if matches { return index }
        }
        return nil
    }

    /// Re-reads each table's stored name, key kind and unique indexes, and re-creates the triggers.
    ///
    /// Runs outside any transaction (the temporary triggers would vanish with a rollback).
    mutating func refresh(on connection: SQLiteConnection) throws {
        schemaVersion = nil
        let version = try connection.scalarInteger("PRAGMA main.schema_version")
        try dropTriggers(on: connection)
        for index in tables.indices {
            try describe(&tables[index], on: connection)
            for sql in triggers(for: index) {
                try Self.run(sql, on: connection)
            }
        }
        schemaVersion = version
    }

    private func describe(_ table: inout Table, on connection: SQLiteConnection) throws {
        let entity = table.entity
        let stored = try connection.scalarText(
            "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
            [.text(entity.table)])
        guard let stored else {
            table.storedName = []
            return
        }
        table.storedName = stored.utf8CString.map { $0 }
        var hasKeyIndex = false
        var hasOtherUnique = false
        try connection.withStatement("SELECT origin, \"unique\" FROM pragma_index_list(?, 'main')") { statement in
            try statement.bind([.text(stored)])
            while try statement.step() {
                let isKey = statement.text(at: 0) == "pk"
                hasKeyIndex = hasKeyIndex || isKey
                hasOtherUnique = hasOtherUnique || (!isKey && statement.integer(at: 1) != 0)
            }
        }
        // A rowid alias has no index of its own; any other primary key (text, WITHOUT ROWID) has one.
        table.keyIsRowid = entity.primaryKey.type == .integer && !hasKeyIndex
        table.hasOtherUniqueIndex = hasOtherUnique
    }

    /// The `CREATE TEMP TRIGGER` statements for the table at `index`.
    private func triggers(for index: Int) -> [String] {
        let table = tables[index]
        guard !table.storedName.isEmpty else { return [] }
        let dialect = SQLDialect.sqlite
        let target = "main." + dialect.quote(names[index])
        let key = dialect.quote(table.entity.primaryKeyAttribute.column)
        func trigger(_ suffix: String, _ event: String, when: String = "", _ arguments: String) -> String {
            "CREATE TEMP TRIGGER " + dialect.quote(Self.triggerPrefix + "\(index)_\(suffix)") + " AFTER " + event
                + " ON " + target + when + " BEGIN SELECT " + Self.functionName + "(\(index), " + arguments
                + "); END"
        }
        typealias Operation = SQLiteChangeLog.Operation
        var triggers: [String] = []
        let columns = referenceColumns[index].map(dialect.quote)
        if !columns.isEmpty {
            // The followed foreign keys of every changed row, before and after (an update that leaves them as they
            // were still changes the to-many side of the row they point at).
            func values(_ row: String) -> String { columns.map { "\(row).\($0)" }.joined(separator: ", ") }
            let reference = "\(Operation.reference.rawValue), "
            triggers += [
                trigger("ref_insert", "INSERT", reference + values("NEW")),
                trigger("ref_update", "UPDATE", reference + values("OLD") + ", " + values("NEW")),
                trigger("ref_delete", "DELETE", reference + values("OLD"))
            ]
        }
        if table.keyIsRowid {
            return triggers + [
                trigger(
                    "rekey", "UPDATE", when: " WHEN OLD.\(key) IS NOT NEW.\(key)",
                    "\(Operation.delete.rawValue), OLD.\(key)")
            ]
        }
        return triggers + [
            trigger("insert", "INSERT", "\(Operation.insert.rawValue), NEW.\(key)"),
            trigger("update", "UPDATE", "\(Operation.update.rawValue), OLD.\(key), NEW.\(key)"),
            trigger("delete", "DELETE", "\(Operation.delete.rawValue), OLD.\(key)")
        ]
    }

    private func dropTriggers(on connection: SQLiteConnection) throws {
        var names: [String] = []
        try connection.withStatement(
            "SELECT name FROM temp.sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?"
        ) { statement in
            try statement.bind([.integer(Int64(Self.triggerPrefix.utf8.count)), .text(Self.triggerPrefix)])
            while try statement.step() { names.append(statement.text(at: 0)) }
        }
        for name in names {
            try Self.run("DROP TRIGGER temp." + SQLDialect.sqlite.quote(name), on: connection)
        }
    }

    /// Runs a statement without keeping it in the connection's statement cache.
    private static func run(_ sql: String, on connection: SQLiteConnection) throws {
        let statement = try connection.prepare(sql, persistent: false)
        while try statement.step() {}
    }
}
