import FetchKitBackendKit

/// Checks that an existing table can store an entity: every attribute's column exists with a
/// compatible declared type and the right nullability, the primary key is the entity's key, and
/// no unknown column would make inserts fail.
struct SQLiteSchemaValidator {
    let dialect: SQLDialect

    /// Throws ``FetchKitError/Code/schemaMismatch`` naming the first column that does not fit.
    func validate(_ entity: Entity, against columns: [SQLiteTableColumn]) throws {
        func mismatch(_ detail: String) -> FetchKitError {
            .schemaMismatch(table: entity.table, detail: detail)
        }
        // SQLite compares column names case-insensitively (ASCII only).
        var byName: [String: SQLiteTableColumn] = [:]
        for column in columns { byName[column.name.lowercased()] = column }
        let primaryKey = entity.primaryKeyAttribute
        for attribute in entity.attributes {
            let described = "\(entity.name).\(attribute.name)"
            guard let column = byName[attribute.column.lowercased()] else {
                throw mismatch("column \(SafeText.quoted(attribute.column)) of \(described) is missing")
            }
            let expected = dialect.columnType(for: attribute.type)
            let accepted = SQLiteAffinity.accepted(for: attribute.type, declaredByDialect: expected)
            guard accepted.contains(column.affinity) else {
                throw mismatch(
                    "column \(SafeText.quoted(column.name)) is declared \(SafeText.quoted(column.declaredType)) "
                        + "(\(column.affinity.rawValue) affinity), but \(described) is \(attribute.type) "
                        + "(expected \(expected))")
            }
            if attribute.name == primaryKey.name { continue }
            if !attribute.isOptional && !column.isNotNull {
                throw mismatch(
                    "column \(SafeText.quoted(column.name)) allows NULL, but \(described) is required (NOT NULL "
                        + "expected)"
                )
            }
            if attribute.isOptional && column.isNotNull {
                throw mismatch("column \(SafeText.quoted(column.name)) is NOT NULL, but \(described) is optional")
            }
        }
        try validatePrimaryKey(of: entity, columns: columns, mismatch: mismatch)
        let known = Set(entity.attributes.map { $0.column.lowercased() })
        if let extra = columns.first(where: {
            !known.contains($0.name.lowercased()) && $0.isNotNull && !$0.hasDefault && $0.primaryKeyPosition == 0
        }) {
            throw mismatch(
                "column \(SafeText.quoted(extra.name)) is NOT NULL without a default and is no attribute of "
                    + "\(entity.name): "
                    + "inserts would fail")
        }
    }

    private func validatePrimaryKey(
        of entity: Entity, columns: [SQLiteTableColumn], mismatch: (String) -> FetchKitError
    ) throws {
        let key = entity.primaryKeyAttribute
        let keyColumns = columns.filter { $0.primaryKeyPosition > 0 }
            .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        guard keyColumns.count == 1, let keyColumn = keyColumns.first,
            keyColumn.name.lowercased() == key.column.lowercased()
        else {
            let found = keyColumns.isEmpty ? "none" : "(" + keyColumns.map(\.name).joined(separator: ", ") + ")"
            throw mismatch("the primary key is \(found), expected (\(SafeText.quoted(key.column)))")
        }
        // Only a column declared exactly INTEGER PRIMARY KEY is the rowid, which SQLite assigns
        // when an insert leaves it out (and which can never be NULL).
        if entity.primaryKey.type == .integer, keyColumn.declaredType.uppercased() != "INTEGER" {
            throw mismatch(
                "primary key column \(SafeText.quoted(keyColumn.name)) is declared "
                    + "\(SafeText.quoted(keyColumn.declaredType)); an integer key "
                    + "must be declared INTEGER PRIMARY KEY so SQLite assigns it")
        }
        if entity.primaryKey.type == .text, !keyColumn.isNotNull {
            throw mismatch("primary key column \(SafeText.quoted(keyColumn.name)) allows NULL (NOT NULL expected)")
        }
    }
}
