import FetchKitBackendKit

extension SQLiteStore {
    /// The entity of an existing table, read from the database file at `path`: one attribute per column,
    /// typed by the column's affinity, optional when it allows NULL; the primary key is the table's
    /// single-column primary key. For tools that attach to a database FetchKit did not create
    /// (`fetchkit watch`).
    ///
    /// SQLite stores booleans and dates as integers: such columns read as `.integer` attributes.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` when the table does not exist or has no
    ///   single-column primary key.
    public static func describeTable(_ table: String, path: String) async throws -> Entity {
        let pool = try await ConnectionPool<SQLiteConnection>.start(name: "fk.sqlite.describe", size: 1) { _ in
            try SQLiteConnection.open(
                .init(path: path, readOnly: true, busyTimeoutMilliseconds: 5_000, statementCacheCapacity: 0))
        }
        do {
            let columns = try await pool.run { connection in try connection.tableColumns(table) }
            await pool.shutDown()
            return try entity(table, columns)
        } catch {
            await pool.shutDown()
            throw error
        }
    }

    private static func entity(_ table: String, _ columns: [SQLiteTableColumn]) throws -> Entity {
        guard !columns.isEmpty else { throw FetchKitError.schemaMismatch(table: table, detail: "no such table") }
        let keys = columns.filter { $0.primaryKeyPosition > 0 }
        guard keys.count == 1, let key = keys.first else {
            throw FetchKitError.schemaMismatch(table: table, detail: "FetchKit needs a single-column primary key")
        }
        func type(_ column: SQLiteTableColumn) -> AttributeType {
            if column.declaredType.uppercased() == "FLOAT8_BLOB" { return .double }
            switch column.affinity {
            case .integer: return .integer
            case .real, .numeric: return .double
            case .text: return .text
            case .blob: return .binary
            }
        }
        let primaryKey: PrimaryKey = type(key) == .integer ? .integer(key.name) : .text(key.name)
        let attributes = columns.filter { $0.primaryKeyPosition == 0 }.map { column in
            Attribute(column.name, type(column), optional: !column.isNotNull)
        }
        return Entity(table, table: table, primaryKey: primaryKey, attributes: attributes)
    }
}
