@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// Fetches and counts over the tables, as the backends' compiled `SELECT` answers them.
extension InMemoryDatabase {
    /// The rows `request` fetches, in its order: the backends' columns (the primary key, the attributes or
    /// ``AnyFetchRequest/propertiesToFetch``, then each sort or section key path and each prefetched related
    /// attribute not already selected, named by its dotted key path), ordered by the sort descriptors then the
    /// primary key, the offset and limit applied.
    ///
    /// - Complexity: O(*n* log *n*) for *n* matching rows, plus the predicate's evaluations.
    func fetch(_ request: AnyFetchRequest, schema: Schema, dialect: SQLDialect) throws -> [Row] {
        let request = try request.validated(in: schema)
        let entity = try schema.entity(named: request.entityName)
        let evaluator = InMemoryEvaluator(database: self, schema: schema, dialect: dialect)
        let matching = try evaluator.rows(of: entity, matching: request.predicate)

        var names: [String] = []
        var paths: [ResolvedKeyPath] = []
        let prefetched = try request.prefetchedKeyPaths(in: schema)
        for name in [entity.primaryKey.name] + (request.propertiesToFetch ?? entity.attributes.map(\.name))
            + request.sortDescriptors.map(\.key) + [request.sectionNameKeyPath].compactMap({ $0 }) + prefetched
        where !names.contains(name) {
            names.append(name)
            paths.append(try schema.resolve(name, from: entity))
        }
        let layout = RowLayout(names: names)
        var rows = matching.map { row in Row(layout: layout, values: paths.map { value(of: $0, from: row) }) }
        let order = SortKeyOrder(request.sortDescriptors, primaryKey: entity.primaryKey.name)
        rows.sort { order.compare($0, $1) == .orderedAscending }
        return Array(rows[Self.window(count: rows.count, request)])
    }

    /// How many rows `request` fetches (its offset and limit apply).
    ///
    /// - Complexity: O(*n*) evaluations of the predicate for the entity's *n* rows.
    func count(_ request: AnyFetchRequest, schema: Schema, dialect: SQLDialect) throws -> Int {
        let request = try request.validated(in: schema)
        let entity = try schema.entity(named: request.entityName)
        let evaluator = InMemoryEvaluator(database: self, schema: schema, dialect: dialect)
        return Self.window(count: try evaluator.rows(of: entity, matching: request.predicate).count, request).count
    }

    /// The positions `LIMIT … OFFSET …` keeps of `count` ordered rows.
    private static func window(count: Int, _ request: AnyFetchRequest) -> Range<Int> {
        let start = min(request.fetchOffset, count)
        let end = request.fetchLimit.map { start + min($0, count - start) } ?? count
        return start..<end
    }
}
