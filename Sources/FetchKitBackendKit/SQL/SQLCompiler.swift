@_spi(Backend) import FetchKit

/// Compiles fetch requests, predicates and writes to SQL text with bound values for one dialect.
///
/// Part of the plugin API: a backend compiles with its ``SQLDialect`` and runs the statements.
/// Every value becomes a bound parameter; every identifier comes from the schema and is quoted.
///
/// ```swift
/// let compiler = SQLCompiler(schema: Fixtures.schema, dialect: .sqlite)
/// let fetch = try compiler.fetch(FetchRequest(entity: "Todo",
///                                             predicate: try FetchPredicate(format: "done == NO"),
///                                             sortDescriptors: [.ascending("category.name")]))
/// // SELECT t0."id" AS "id", …, t1."name" AS "category.name" FROM "todo" AS t0
/// //   LEFT JOIN "category" AS t1 ON t1."id" = t0."category_id" WHERE t0."done" = ?
/// //   ORDER BY t1."name" ASC NULLS FIRST, t0."id" ASC
/// ```
public struct SQLCompiler: Sendable {
    /// The entities statements are compiled against.
    public let schema: Schema
    /// How statements are written.
    public let dialect: SQLDialect
    /// The columns whose type in the database is not the dialect's standard type, by table and column.
    public let nativeColumns: NativeColumns
    /// Re-reads by primary key compiled so far (see ``KeyListStatementCache``), shared by copies.
    let keyListStatements = KeyListStatementCache()

    /// Creates a compiler for `schema` in `dialect`, whose tables have the dialect's standard column types
    /// except for `nativeColumns`.
    public init(schema: Schema, dialect: SQLDialect, nativeColumns: NativeColumns = [:]) {
        self.schema = schema
        self.dialect = dialect
        self.nativeColumns = nativeColumns
    }

    /// The schema's own copy of `entity` (so relationships resolve against the same declarations).
    func schemaEntity(_ entity: Entity) throws -> Entity {
        try schema.entity(named: entity.name)
    }

    /// `"name"`, quoted for this dialect.
    func quote(_ identifier: String) -> String { dialect.quote(identifier) }
}

/// Hands out table aliases unique within one statement: `t1`, `t2`, … for the tables the main query
/// joins (its root is `t0`), `s1`, `s2`, … for the tables of correlated subqueries.
final class AliasAllocator {
    private var nextTable = 1
    private var nextSubquery = 1

    func tableAlias() -> String {
        defer { nextTable += 1 }
        return "t\(nextTable)"
    }

    func subqueryAlias() -> String {
        defer { nextSubquery += 1 }
        return "s\(nextSubquery)"
    }
}

/// The tables one `SELECT` (or correlated subquery) reads: its root table and the `LEFT JOIN`s that
/// to-one key paths add as they are compiled, one per distinct relationship prefix.
final class QueryScope {
    /// One `LEFT JOIN` of a to-one relationship's destination.
    struct Join {
        var table: String
        var alias: String
        var condition: String
    }

    let entity: Entity
    /// How the root table is referred to: an alias (`t0`) or, in alias-free statements, its quoted name.
    let alias: String
    let isSubquery: Bool
    private let aliases: AliasAllocator
    private(set) var joins: [Join] = []
    private var aliasByPrefix: [[String]: String] = [:]
    /// The scope each `SUBQUERY` variable being compiled stands for, by name (kept on the statement's root
    /// scope, where plain key paths resolve).
    var variables: [String: QueryScope] = [:]

    init(entity: Entity, alias: String, aliases: AliasAllocator, isSubquery: Bool) {
        self.entity = entity
        self.alias = alias
        self.aliases = aliases
        self.isSubquery = isSubquery
    }

    /// A new subquery scope rooted at `entity`, sharing this statement's alias allocator.
    func subquery(of entity: Entity) -> QueryScope {
        QueryScope(entity: entity, alias: aliases.subqueryAlias(), aliases: aliases, isSubquery: true)
    }

    /// The alias of the table reached by crossing `hops` (all to-one) from the root, joining as needed.
    func alias(after hops: ArraySlice<ResolvedKeyPath.Hop>, dialect: SQLDialect) -> String {
        var current = alias
        var prefix: [String] = []
        for hop in hops {
            prefix.append(hop.relationship.name)
            if let existing = aliasByPrefix[prefix] {
                current = existing
                continue
            }
            let joined = isSubquery ? aliases.subqueryAlias() : aliases.tableAlias()
            let key = dialect.quote(hop.destination.primaryKeyAttribute.column)
            joins.append(
                Join(
                    table: hop.destination.table, alias: joined,
                    condition: "\(joined).\(key) = \(current).\(dialect.quote(hop.foreignKey.column))"))
            aliasByPrefix[prefix] = joined
            current = joined
        }
        return current
    }

    /// The column a to-one key path ends at, qualified by the alias of its table.
    func column(_ path: ResolvedKeyPath, dialect: SQLDialect) -> String {
        alias(after: path.hops[...], dialect: dialect) + "." + dialect.quote(path.attribute.column)
    }

    /// `"table" AS alias LEFT JOIN …`: the tables of the scope for a `FROM` clause.
    func fromClause(dialect: SQLDialect) -> String {
        var sql = dialect.quote(entity.table)
        if alias != dialect.quote(entity.table) { sql += " AS " + alias }
        for join in joins {
            sql += " LEFT JOIN \(dialect.quote(join.table)) AS \(join.alias) ON \(join.condition)"
        }
        return sql
    }
}
