import FetchKitBackendKit

/// The foreign-key columns whose values a PostgreSQL change feed reports (``TableChange/references``), by table:
/// those a to-many relationship of the schema follows (``Schema/referencedForeignKeys(of:)``).
struct PostgresReferenceColumns: Sendable, Equatable {
    /// One followed foreign-key column.
    struct Column: Sendable, Equatable {
        /// The column as the table names it.
        let column: String
        /// The attribute the change names it by.
        let attribute: String
        /// Whether the key it holds is `char(n)`: its values arrive padded and are read without the padding
        /// (`Value.withoutCharPadding`).
        let padded: Bool
    }

    /// The followed columns of each table that has any.
    let byTable: [String: [Column]]

    init(byTable: [String: [Column]] = [:]) {
        self.byTable = byTable
    }

    /// The followed columns of `schema`'s tables; the keys of `paddedKeyTables` are `char(n)`.
    init(schema: Schema, paddedKeyTables: Set<String>) {
        var byTable: [String: [Column]] = [:]
        for entity in schema.entities {
            let columns = schema.referencedForeignKeys(of: entity).map { attribute in
                let destination = entity.relationships.first { relationship in
                    if case .toOne(let foreignKey) = relationship.kind { return foreignKey == attribute.name }
                    return false
                }.flatMap { relationship in
                    // A schema's relationships name entities it has (`Schema.init` checks): the lookup cannot fail.
                    schema.entities.first { $0.name == relationship.destination }
                }
                return Column(
                    column: attribute.column, attribute: attribute.name,
                    padded: destination.map { paddedKeyTables.contains($0.table) } ?? false)
            }
            if !columns.isEmpty { byTable[entity.table] = columns }
        }
        self.byTable = byTable
    }

    /// The followed column `column` of `table`, if it is one.
    func column(_ column: String, of table: String) -> Column? {
        byTable[table]?.first { $0.column == column }
    }

}
