import FetchKit
import FetchKitDrivers

extension PostgresStore {
    /// The entity of an existing table in the URL's current schema: one attribute per column FetchKit reads
    /// (`bigint`, `double precision`, `text`, `boolean`, `timestamp with time zone`, `bytea`), optional when
    /// it allows NULL; the primary key is the table's single-column primary key. For tools that attach to a
    /// database (`fetchkit watch`).
    ///
    /// - Throws: ``FetchKitError/schemaMismatch(table:detail:)`` when the table does not exist, has no
    ///   single-column primary key, or has a column of a type the store does not write.
    public static func describeTable(_ table: String, url: PostgresURL) async throws -> Entity {
        let pool = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.describe", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        do {
            let (columns, keys) = try await pool.run { connection in
                let columns = try PostgresTableColumn.columns(of: table, on: connection)
                let keys = try primaryKeyColumns(of: table, on: connection)
                return (columns, keys)
            }
            await pool.shutDown()
            return try entity(table, columns, keys)
        } catch {
            await pool.shutDown()
            throw error
        }
    }

    private static func entity(_ table: String, _ columns: [PostgresTableColumn], _ keys: [String]) throws -> Entity {
        guard !columns.isEmpty else { throw FetchKitError.schemaMismatch(table: table, detail: "no such table") }
        guard keys.count == 1, let key = keys.first, let keyColumn = columns.first(where: { $0.name == key }) else {
            throw FetchKitError.schemaMismatch(table: table, detail: "FetchKit needs a single-column primary key")
        }
        func type(_ column: PostgresTableColumn) throws -> AttributeType {
            switch column.dataType {
            case "bigint": return .integer
            case "double precision": return .double
            case "text": return .text
            case "boolean": return .bool
            case "timestamp with time zone": return .date
            case "bytea": return .binary
            default:
                throw FetchKitError.schemaMismatch(
                    table: table, detail: "column '\(column.name)' is \(column.dataType), which the store does not write")
            }
        }
        let primaryKey: PrimaryKey = try type(keyColumn) == .integer ? .integer(key) : .text(key)
        let attributes = try columns.filter { $0.name != key }.map { column in
            Attribute(column.name, try type(column), optional: column.isNullable)
        }
        return Entity(table, table: table, primaryKey: primaryKey, attributes: attributes)
    }
}
