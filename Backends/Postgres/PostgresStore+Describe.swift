import FetchKit
import FetchKitBackendKit

extension PostgresStore {
    /// The entity of an existing table in the URL's current schema: one attribute per column, optional when
    /// it allows NULL; the primary key is the table's single-column primary key (an integer or text one). For
    /// tools that attach to a database (`fetchkit watch`).
    ///
    /// Column types map to attribute types as the "Operating PostgreSQL" article lists: `smallint`, `integer`,
    /// `bigint` and `numeric(p, 0)` (p ≤ 18) are integers; `real`, `double precision` and other `numeric`s
    /// doubles; `text`, `varchar`, `char`, `citext`, `uuid`, `json`, `jsonb` and enums text; `date`,
    /// `timestamp` and `timestamptz` dates; `boolean` bools; `bytea` binary.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` when the table does not exist, has no
    ///   single-column integer or text primary key, or has a column of a type FetchKit does not read or write
    ///   (the detail names the column and its type).
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
        let keyType = try PostgresColumnType(keyColumn, table: table).attributeType
        guard keyType == .integer || keyType == .text else {
            throw FetchKitError.schemaMismatch(
                table: table,
                detail:
                    "the primary key \(SafeText.quoted(key)) is \(keyColumn.displayType); FetchKit needs an "
                    + "integer or text key"
            )
        }
        let primaryKey: PrimaryKey = keyType == .integer ? .integer(key) : .text(key)
        let attributes = try columns.filter { $0.name != key }.map { column in
            Attribute(
                column.name, try PostgresColumnType(column, table: table).attributeType, optional: column.isNullable)
        }
        return Entity(table, table: table, primaryKey: primaryKey, attributes: attributes)
    }
}
