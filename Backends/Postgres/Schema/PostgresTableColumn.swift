import FetchKitBackendKit

/// One column of an existing table, as PostgreSQL's catalog describes it.
struct PostgresTableColumn {
    let name: String
    /// The type as PostgreSQL shows it (`format_type`): `integer`, `character(84)`, `public.mood`, …
    let displayType: String
    /// The type's name and schema in `pg_type` (`int4` in `pg_catalog`, `citext` in `public`, …).
    let typeName: String
    let typeSchema: String
    /// `pg_type.typtype`: `b` base, `e` enum, `d` domain, `c` composite, `r` range, `m` multirange, `p` pseudo.
    let typeKind: String
    /// `pg_type.typcategory`: `A` for arrays, …
    let typeCategory: String
    /// The declared modifier (`varchar(n)`'s length, `numeric(p, s)`'s precision and scale), `-1` when none.
    let typeModifier: Int
    let isNullable: Bool
    /// Whether an insert may leave the column out: it has a default or is an identity column.
    var hasDefault = false

    /// The columns of `table` in the connection's current schema, in order (none when it does not exist).
    static func columns(of table: String, on connection: PostgresConnection) throws -> [PostgresTableColumn] {
        let rows = try connection.execute(
            """
            SELECT a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS display, t.typname::text AS type,
                tn.nspname::text AS type_schema, t.typtype::text AS kind, t.typcategory::text AS category,
                a.atttypmod::int8 AS modifier, NOT a.attnotnull AS nullable,
                (a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '') AS has_default
            FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace tn ON tn.oid = t.typnamespace
            WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, [.text(table)]
        ).rows()
        func text(_ row: Row, _ name: String) -> String { row[name, as: String.self] ?? "" }
        return rows.map { row in
            PostgresTableColumn(
                name: text(row, "name"), displayType: text(row, "display"), typeName: text(row, "type"),
                typeSchema: text(row, "type_schema"), typeKind: text(row, "kind"), typeCategory: text(row, "category"),
                typeModifier: row["modifier", as: Int.self] ?? -1, isNullable: row["nullable", as: Bool.self] ?? true,
                hasDefault: row["has_default", as: Bool.self] ?? false)
        }
    }

    /// Checks that every attribute of `entity` has a column of a type FetchKit maps to the attribute's type
    /// (extra columns are allowed); returns the native types of those columns that are not standard.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` naming the column (and its type) that is
    ///   missing, of another attribute type, of an unsupported type, or allows NULL for a required attribute.
    static func validate(_ entity: Entity, against columns: [PostgresTableColumn]) throws -> [String: NativeColumn] {
        let byName = Dictionary(columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var natives: [String: NativeColumn] = [:]
        for attribute in entity.attributes {
            guard let column = byName[attribute.column] else {
                throw FetchKitError.schemaMismatch(
                    table: entity.table, detail: "no column \(SafeText.quoted(attribute.column))")
            }
            let type = try PostgresColumnType(column, table: entity.table)
            guard type.attributeType == attribute.type else {
                throw FetchKitError.schemaMismatch(
                    table: entity.table,
                    detail:
                        "column \(SafeText.quoted(attribute.column)) is \(column.displayType), which FetchKit reads as "
                        + "\(type.attributeType.description) attribute, not as \(attribute.type.description) one")
            }
            if !attribute.isOptional && column.isNullable && attribute.name != entity.primaryKeyAttribute.name {
                throw FetchKitError.schemaMismatch(
                    table: entity.table,
                    detail:
                        "column \(SafeText.quoted(attribute.column)) allows NULL but "
                        + "\(SafeText.quoted(attribute.name)) is not optional"
                )
            }
            natives[attribute.column] = type.native
        }
        return natives
    }
}
