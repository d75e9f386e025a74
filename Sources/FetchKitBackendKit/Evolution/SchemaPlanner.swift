@_spi(Backend) import FetchKit

/// Compares a declared schema with a described database and plans the additive steps that bring the database
/// to the schema, refusing the rest (``SchemaPlan``). Pure: it reads no database, so a backend describes its
/// database (``DatabaseDescription``) and plans with its dialect.
///
/// ```swift
/// let plan = SchemaPlanner(schema: schema, dialect: dialect).plan(against: described)
/// ```
public struct SchemaPlanner: Sendable {
    /// Renders the steps: the schema and the dialect.
    let compiler: SQLCompiler

    /// A planner for `schema`, writing DDL in `dialect`.
    public init(schema: Schema, dialect: SQLDialect) {
        self.compiler = SQLCompiler(schema: schema, dialect: dialect)
    }

    /// The plan that brings `database` to the schema: tables a table's references need come first, each
    /// table's indexes after its columns.
    public func plan(against database: DatabaseDescription) -> SchemaPlan {
        var plan = SchemaPlan()
        for entity in compiler.orderedEntities() {
            if let refusal = invalidIdentifier(in: entity) {
                plan.refusals.append(refusal)
                continue
            }
            guard let table = database.table(named: entity.table) else {
                plan.steps += createTable(entity)
                continue
            }
            var existing = TablePlan(entity: entity, table: table, database: database, compiler: compiler)
            existing.compare()
            plan.steps += existing.steps
            plan.refusals += existing.refusals
            plan.notes += existing.notes
        }
        return plan
    }

    /// The steps that create `entity`'s table, then its indexes.
    private func createTable(_ entity: Entity) -> [SchemaPlan.Step] {
        let statements = compiler.createTable(entity)
        let indexes = compiler.dialect.indexNames(of: entity)
        var steps = [SchemaPlan.Step(.createTable, table: entity.table, sql: statements[0].sql)]
        for (index, statement) in statements.dropFirst().enumerated() where index < indexes.count {
            steps.append(
                SchemaPlan.Step(
                    .createIndex(column: indexes[index].column, name: indexes[index].name), table: entity.table,
                    sql: statement.sql))
        }
        return steps
    }

    /// A refusal for a table or column name no database keeps as written (empty, or holding NUL).
    private func invalidIdentifier(in entity: Entity) -> SchemaPlan.Refusal? {
        func invalid(_ name: String) -> Bool { name.isEmpty || name.utf8.contains(0) }
        if invalid(entity.table) {
            return SchemaPlan.Refusal(
                table: entity.table, problem: "the table name of entity \(entity.name) is empty or holds NUL",
                remedy: "give the entity another table name")
        }
        if let attribute = entity.attributes.first(where: { invalid($0.column) }) {
            return SchemaPlan.Refusal(
                table: entity.table, column: attribute.column,
                problem: "the column name of \(entity.name).\(attribute.name) is empty or holds NUL",
                remedy: "give the attribute another column name (column: \"…\")")
        }
        return nil
    }
}
