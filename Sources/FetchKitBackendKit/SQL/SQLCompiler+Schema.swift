@_spi(Backend) import FetchKit

extension SQLCompiler {
    /// The statements that create `entity`'s table and indexes when they do not exist yet.
    ///
    /// ```sql
    /// CREATE TABLE IF NOT EXISTS "todo" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, …,
    ///   FOREIGN KEY ("category_id") REFERENCES "category" ("id") ON DELETE SET NULL)
    /// CREATE INDEX IF NOT EXISTS "todo_category_id_idx" ON "todo" ("category_id")
    /// ```
    ///
    /// Columns take the dialect's types (``SQLDialect/columnType(for:)``), `NOT NULL` unless optional, and
    /// the dialect's code-point collation for text. An integer primary key uses
    /// ``SQLDialect/integerPrimaryKeyDefinition`` (SQLite's rowid alias). Each to-one relationship is a
    /// foreign key with `ON DELETE SET NULL`. Every foreign-key column and every indexed attribute gets an
    /// index, named as ``SQLDialect/indexNames(of:)`` says (`table_column_idx`, cut to the dialect's longest
    /// identifier).
    ///
    /// Columns carry no `DEFAULT`: defaults live in the schema and ``insert(_:into:)`` writes them, so they
    /// never need rendering as SQL literals.
    public func createTable(_ entity: Entity) -> [SQLStatement] {
        let entity = (try? schemaEntity(entity)) ?? entity
        let key = entity.primaryKeyAttribute
        var definitions: [String] = []
        for attribute in entity.attributes {
            definitions.append(columnDefinition(attribute, isPrimaryKey: attribute.name == key.name))
        }
        for relationship in entity.relationships {
            guard case .toOne(let foreignKeyName) = relationship.kind,
                let foreignKey = entity.attribute(named: foreignKeyName),
                let destination = try? schema.entity(named: relationship.destination)
            else { continue }
            definitions.append(
                "FOREIGN KEY (" + quote(foreignKey.column) + ") REFERENCES " + quote(destination.table) + " ("
                    + quote(destination.primaryKeyAttribute.column) + ") ON DELETE SET NULL")
        }
        var statements = [
            SQLStatement(
                sql: "CREATE TABLE IF NOT EXISTS " + quote(entity.table) + " ("
                    + definitions.joined(separator: ", ") + ")")
        ]
        for (column, name) in dialect.indexNames(of: entity) {
            statements.append(SQLStatement(sql: createIndex(name, table: entity.table, column: column)))
        }
        return statements
    }

    /// A column's definition in `CREATE TABLE` (and `ALTER TABLE … ADD COLUMN`): quoted name, the dialect's type,
    /// the code-point collation for text, `NOT NULL` unless optional; a primary key's `PRIMARY KEY` (an integer
    /// one as ``SQLDialect/integerPrimaryKeyDefinition``).
    package func columnDefinition(_ attribute: Attribute, isPrimaryKey: Bool) -> String {
        if isPrimaryKey && attribute.type == .integer {
            return quote(attribute.column) + " " + dialect.integerPrimaryKeyDefinition
        }
        var definition = quote(attribute.column) + " " + dialect.columnType(for: attribute.type)
        if attribute.type == .text, let collation = dialect.textOrderCollation {
            definition += " COLLATE " + quote(collation)
        }
        if !attribute.isOptional || isPrimaryKey { definition += " NOT NULL" }
        if isPrimaryKey { definition += " PRIMARY KEY" }
        return definition
    }

    /// `CREATE INDEX IF NOT EXISTS "name" ON "table" ("column")`.
    package func createIndex(_ name: String, table: String, column: String) -> String {
        "CREATE INDEX IF NOT EXISTS " + quote(name) + " ON " + quote(table) + " (" + quote(column) + ")"
    }

    /// The statements that create every table of the schema, a table after the tables its foreign keys
    /// reference (declaration order otherwise; a reference cycle keeps declaration order).
    public func createSchema() -> [SQLStatement] {
        orderedEntities().flatMap { createTable($0) }
    }

    /// The schema's entities, each after the entities its to-one relationships reference (declaration order
    /// otherwise; a reference cycle keeps declaration order).
    package func orderedEntities() -> [Entity] {
        var ordered: [Entity] = []
        var placed: Set<String> = []
        var remaining = schema.entities
        while !remaining.isEmpty {
            let ready =
                remaining.firstIndex { entity in
                    entity.relationships.allSatisfy { relationship in
                        !relationship.isToOne || placed.contains(relationship.destination)
                            || relationship.destination == entity.name
                    }
                } ?? 0
            let entity = remaining.remove(at: ready)
            placed.insert(entity.name)
            ordered.append(entity)
        }
        return ordered
    }
}
