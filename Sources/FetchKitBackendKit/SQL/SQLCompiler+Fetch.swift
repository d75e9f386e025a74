@_spi(Backend) import FetchKit

extension SQLCompiler {
    /// Compiles `request` to one `SELECT`.
    ///
    /// The columns are the primary key, then the requested attributes (``AnyFetchRequest/propertiesToFetch``
    /// or all, named by attribute name), then one column per sort key path and section key path not
    /// already selected (named by its dotted key path, such as `category.name`), so a results controller
    /// has every sort and section value, then the attributes of each relationship to prefetch
    /// (``AnyFetchRequest/prefetchedKeyPaths(in:)``). Each distinct to-one relationship prefix is one `LEFT JOIN`,
    /// shared by columns, predicate and order. The order always ends with the primary key, so it is total.
    ///
    /// ```swift
    /// let fetch = try compiler.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.descending("priority")],
    ///                                             fetchLimit: 20))
    /// // … ORDER BY t0."priority" DESC, t0."id" ASC LIMIT ?      bindings: [20]
    /// ```
    ///
    /// - Throws: the errors of ``AnyFetchRequest/validated(in:)``, and ``FetchKitError/Code/unsupported`` for
    ///   constructs the dialect cannot express (`MATCHES`, `[d]` without a diacritic fold).
    ///
    /// A re-read by primary key (the predicate `AND` `SELF IN` a list of keys, as live results issue for every
    /// change) reuses the statement compiled for the same request and number of keys.
    public func fetch(_ request: AnyFetchRequest) throws -> CompiledFetch {
        try cachedKeyListFetch(request, compile: compileFetch)
    }

    /// Compiles `request` (``fetch(_:)`` without the cache).
    func compileFetch(_ request: AnyFetchRequest) throws -> CompiledFetch {
        let request = try request.validated(in: schema)
        let entity = try schema.entity(named: request.entityName)
        let scope = QueryScope(entity: entity, alias: "t0", aliases: AliasAllocator(), isSubquery: false)

        var columns: [ResultColumn] = []
        var selected: [String] = []
        var names: Set<String> = []
        func select(_ name: String) throws {
            guard names.insert(name).inserted else { return }
            let path = try schema.resolveToOne(name, from: entity, role: "column")
            selected.append(reading(path, in: scope).0 + " AS " + quote(name))
            columns.append(ResultColumn(name: name, type: path.attribute.type))
        }
        try select(entity.primaryKey.name)
        for name in request.propertiesToFetch ?? entity.attributes.map(\.name) { try select(name) }
        for descriptor in request.sortDescriptors { try select(descriptor.key) }
        if let section = request.sectionNameKeyPath { try select(section) }
        for keyPath in try request.prefetchedKeyPaths(in: schema) { try select(keyPath) }

        let filter = try whereClause(request.predicate, in: scope)
        let order = try orderBy(request.sortDescriptors, in: scope)
        let from = scope.fromClause(dialect: dialect)
        var sql = SQLFragment("SELECT " + selected.joined(separator: ", ") + " FROM " + from)
        sql.append(filter)
        sql.append(" ORDER BY " + order.joined(separator: ", "))
        sql.append(window(limit: request.fetchLimit, offset: request.fetchOffset))
        return CompiledFetch(statement: try sql.statement(in: dialect), columns: columns)
    }

    /// Compiles a count of the objects `request` fetches (its limit and offset apply).
    ///
    /// ```swift
    /// try compiler.count(FetchRequest(entity: "Todo", predicate: .key("done") == true))
    /// // SELECT COUNT(*) FROM "todo" AS t0 WHERE t0."done" = ?
    /// ```
    ///
    /// The statement returns one row with one integer column.
    public func count(_ request: AnyFetchRequest) throws -> SQLStatement {
        let request = try request.validated(in: schema)
        let entity = try schema.entity(named: request.entityName)
        let scope = QueryScope(entity: entity, alias: "t0", aliases: AliasAllocator(), isSubquery: false)
        let filter = try whereClause(request.predicate, in: scope)
        let from = scope.fromClause(dialect: dialect)
        let window = window(limit: request.fetchLimit, offset: request.fetchOffset)
        let sql: SQLFragment
        if window.isEmpty {
            sql = "SELECT COUNT(*) FROM " + from + filter
        } else {
            sql = "SELECT COUNT(*) FROM (SELECT 1 FROM " + from + filter + window + ") AS c"
        }
        return try sql.statement(in: dialect)
    }

    /// ` WHERE …`, or nothing for a predicate that is true.
    func whereClause(_ predicate: FetchPredicate, in scope: QueryScope) throws -> SQLFragment {
        if predicate.isTriviallyTrue { return SQLFragment() }
        return " WHERE " + (try condition(predicate, in: scope).sql)
    }

    /// The `ORDER BY` terms: each sort descriptor, then the primary key unless already a sort key.
    private func orderBy(_ descriptors: [FetchSortDescriptor], in scope: QueryScope) throws -> [String] {
        var terms: [String] = []
        var ordersByKey = false
        let key = scope.entity.primaryKeyAttribute
        for descriptor in descriptors {
            let path = try schema.resolveToOne(descriptor.key, from: scope.entity, role: "sort key")
            let foldsCase = descriptor.caseInsensitive && path.attribute.type == .text
            let expression =
                foldsCase
                ? collatedText(dialect.caseFolded(reading(path, in: scope).0)) : ordering(path, in: scope)
            terms += orderTerms(expression, ascending: descriptor.ascending, nullable: path.isNullable)
            if path.hops.isEmpty && path.attribute.name == key.name && !foldsCase { ordersByKey = true }
        }
        if !ordersByKey {
            terms.append(ordering(try schema.resolve(key.name, from: scope.entity), in: scope) + " ASC")
        }
        return terms
    }

    /// What `path` is ordered by: its column read with FetchKit's semantics, text in the code-point collation;
    /// a uuid column as it is (its bytes order as its canonical text does, and its index serves the order).
    private func ordering(_ path: ResolvedKeyPath, in scope: QueryScope) -> String {
        let (expression, native) = reading(path, in: scope)
        if native?.native.keyComparison == .canonicalUUID { return scope.column(path, dialect: dialect) }
        return path.attribute.type == .text ? collatedText(expression) : expression
    }

    /// `expression COLLATE "C"` when the dialect orders text in a collation of its own.
    private func collatedText(_ expression: String) -> String {
        guard let collation = dialect.textOrderCollation else { return expression }
        return expression + " COLLATE " + quote(collation)
    }

    /// `x ASC NULLS FIRST` / `x DESC NULLS LAST`, emulated with `(x IS NULL)` when the dialect lacks it.
    private func orderTerms(_ expression: String, ascending: Bool, nullable: Bool) -> [String] {
        let direction = ascending ? "ASC" : "DESC"
        guard nullable else { return ["\(expression) \(direction)"] }
        if dialect.supportsNullsOrdering {
            return ["\(expression) \(direction) NULLS \(ascending ? "FIRST" : "LAST")"]
        }
        return ["(\(expression) IS NULL) \(ascending ? "DESC" : "ASC")", "\(expression) \(direction)"]
    }

    /// ` LIMIT ? OFFSET ?` with bound values, as much of it as the request needs.
    private func window(limit: Int?, offset: Int) -> SQLFragment {
        var sql = SQLFragment()
        if let limit {
            sql.append(" LIMIT " + .binding(.integer(Int64(limit))))
        } else if offset > 0, !dialect.offsetWithoutLimit.isEmpty {
            sql.append(" " + dialect.offsetWithoutLimit)
        }
        if offset > 0 { sql.append(" OFFSET " + .binding(.integer(Int64(offset)))) }
        return sql
    }
}

extension FetchPredicate {
    /// `true` for `TRUEPREDICATE` and an `AND` of nothing but such predicates.
    var isTriviallyTrue: Bool {
        switch node {
        case .constant(let value): return value
        case .and(let predicates): return predicates.allSatisfy(\.isTriviallyTrue)
        case .or, .not, .comparison: return false
        }
    }
}
