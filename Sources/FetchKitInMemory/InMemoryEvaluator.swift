@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// Answers validated predicates over the rows of an ``InMemoryDatabase`` exactly as the backends' SQL
/// answers them, so that ``InMemoryStore`` fetches what SQLite and PostgreSQL fetch.
///
/// Every comparison is decided by the core's in-memory evaluator (the one live results use, proven against
/// both backends): this type works out the two operands for the row — a key path across to-one relationships,
/// `@count`, an aggregate, a `SUBQUERY` count, arithmetic, `SELF`, a variable, a constant — and hands the pair
/// to that evaluator as a two-column row. `ANY` / `ALL` / `NONE` decide one comparison per related row.
///
/// Three-valued logic needs no special care: the compiled SQL negates as `NOT COALESCE(x, FALSE)`, so an
/// unknown comparison counts as false wherever it appears, which is what the evaluator's `matches` returns.
///
/// One evaluator serves one fetch or write statement: it caches the compiled comparisons and the rows each
/// to-many relationship reaches, which stay valid only while the tables do not change.
final class InMemoryEvaluator {
    let database: InMemoryDatabase
    let schema: Schema
    let dialect: SQLDialect

    /// The related rows of each to-many hop (destination entity, foreign key), by the foreign key's value.
    private var children: [ChildrenKey: [Value: [Row]]] = [:]
    /// Compiled comparisons of the two-column rows, by comparison and column types.
    private var compiled: [ComparedKey: InMemoryPredicate] = [:]
    /// The one-entity schemas the two-column rows belong to, by column types.
    private var pairSchemas: [PairTypes: (Entity, Schema)] = [:]
    /// The layout of the two-column rows: `l` (the left operand) and `r` (the right one).
    private let pairLayout = RowLayout(names: ["l", "r"])

    init(database: InMemoryDatabase, schema: Schema, dialect: SQLDialect) {
        self.database = database
        self.schema = schema
        self.dialect = dialect
    }

    /// The row a predicate is evaluated for, and the rows bound to the enclosing `SUBQUERY` variables.
    struct Scope {
        let entity: Entity
        let row: Row
        var variables: [String: (entity: Entity, row: Row)] = [:]
    }

    /// The rows of `entity` that `predicate` (validated for it) selects, in no particular order.
    ///
    /// - Complexity: O(*n*) evaluations for *n* rows; a to-many operand adds the related rows it reads.
    func rows(of entity: Entity, matching predicate: FetchPredicate) throws -> [Row] {
        if case .constant(true) = predicate.node { return database.rows(of: entity.name) }
        return try database.rows(of: entity.name).filter { row in
            try evaluate(predicate, in: Scope(entity: entity, row: row))
        }
    }

    /// Whether the scope's row satisfies `predicate`.
    func evaluate(_ predicate: FetchPredicate, in scope: Scope) throws -> Bool {
        switch predicate.node {
        case .constant(let value):
            return value
        case .and(let parts):
            for part in parts where try !evaluate(part, in: scope) { return false }
            return true
        case .or(let parts):
            for part in parts where try evaluate(part, in: scope) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner, in: scope)
        case .comparison(let comparison):
            do {
                guard comparison.quantifier == .one else { return try quantified(comparison, in: scope) }
                let left = try operand(comparison.lhs, in: scope)
                return try compare(left, comparison.op, comparison.rhs, options: comparison.options, in: scope)
            } catch let error as FetchKitError {
                // An error without a position of its own takes its comparison's, as the SQL compiler's do.
                throw error.located(at: comparison.lhs.offset ?? comparison.rhs.offset)
            }
        }
    }

    /// `ANY` / `ALL` / `NONE`: the comparison decided for each row across the key path's to-many relationship
    /// (`ALL` holds over none, as `NOT EXISTS` does).
    private func quantified(_ comparison: FetchPredicate.Comparison, in scope: Scope) throws -> Bool {
        guard case .key(let key) = comparison.lhs.node else {
            throw FetchKitError.invalidPredicate(
                "\(comparison.quantifier) needs a key path on its left", offset: nil)
        }
        let (row, path) = try start(key, in: scope)
        guard let toMany = path.firstToManyHop, path.hops[(toMany + 1)...].allSatisfy(\.isToOne) else {
            throw FetchKitError.invalidPredicate(
                "'\(key)' must cross exactly one to-many relationship under ANY, ALL or NONE", offset: key.offset)
        }
        let related = database.follow(path.hops[..<toMany], from: row).map { children(path.hops[toMany], of: $0) }
        let remainder = path.hops[(toMany + 1)...]
        for child in related ?? [] {
            let value = database.follow(remainder, from: child)?[path.attribute.name] ?? .null
            let holds = try compare(
                (value, path.attribute.type), comparison.op, comparison.rhs, options: comparison.options, in: scope)
            switch comparison.quantifier {
            case .any where holds: return true
            case .none where holds: return false
            case .all where !holds: return false
            default: continue
            }
        }
        return comparison.quantifier != .any
    }

    /// `left op rhs` for the scope's row.
    func compare(
        _ left: (value: Value, type: AttributeType), _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand,
        options: FetchPredicate.StringOptions, in scope: Scope
    ) throws -> Bool {
        switch (op, rhs.node) {
        case (.in, .elements(let elements)):
            // `x = a OR x IS b …`: each element compared as `==` compares it.
            for element in elements where try compare(left, .equal, element, options: options, in: scope) {
                return true
            }
            return false
        case (.between, .elements(let bounds)) where bounds.count == 2:
            let low = try operand(bounds[0], in: scope)
            let high = try operand(bounds[1], in: scope)
            return try test(left, .greaterThanOrEqual, .key("r"), low, options: options)
                && test(left, .lessThanOrEqual, .key("r"), high, options: options)
        case (_, .value), (_, .list):
            return try test(left, op, rhs, (.null, left.type), options: options)
        default:
            return try test(left, op, .key("r"), try operand(rhs, in: scope), options: options)
        }
    }

    /// `l op right` decided by the core's evaluator over the row `[l: left, r: column]`, where `right` is a
    /// constant, a list, or `r` (the other operand's value, `column`).
    private func test(
        _ left: (value: Value, type: AttributeType), _ op: FetchPredicate.Operator, _ right: FetchPredicate.Operand,
        _ column: (value: Value, type: AttributeType), options: FetchPredicate.StringOptions
    ) throws -> Bool {
        let comparison = FetchPredicate.Comparison(.key("l"), op, right, options: options)
        let key = ComparedKey(comparison: comparison, types: PairTypes(left: left.type, right: column.type))
        let predicate: InMemoryPredicate
        if let cached = compiled[key] {
            predicate = cached
        } else {
            if op == .matches {
                throw FetchKitError.unsupported(
                    "MATCHES", detail: "regular expressions differ between backends", offset: nil)
            }
            let (entity, schema) = try pairSchema(key.types)
            guard
                let made = InMemoryPredicate(.comparison(comparison), entity: entity, schema: schema, dialect: dialect)
            else {
                throw FetchKitError.unsupported(
                    "\(op.rawValue) with \(right) on its right cannot be evaluated, in memory or in SQL")
            }
            compiled[key] = made
            predicate = made
        }
        return predicate.matches(Row(layout: pairLayout, values: [left.value, column.value]))
    }

    /// The one-entity schema whose attributes `l` and `r` have `types`.
    private func pairSchema(_ types: PairTypes) throws -> (Entity, Schema) {
        if let known = pairSchemas[types] { return known }
        let entity = Entity(
            "Compared", primaryKey: .integer("_"),
            attributes: [Attribute("l", types.left, optional: true), Attribute("r", types.right, optional: true)])
        let made = (entity, try Schema([entity]))
        pairSchemas[types] = made
        return made
    }

    // MARK: - Related rows

    /// The row a key path starts from (the scope's, or a `SUBQUERY` variable's) and the path resolved from it.
    func start(_ key: FetchPredicate.Key, in scope: Scope) throws -> (Row, ResolvedKeyPath) {
        guard let variable = key.variable else { return (scope.row, try schema.resolve(key, from: scope.entity)) }
        guard let bound = scope.variables[variable] else {
            throw FetchKitError.invalidPredicate(
                "$\(variable) in '\(key)' is not the variable of an enclosing SUBQUERY", offset: key.offset)
        }
        return (bound.row, try schema.resolve(key.droppingVariable, from: bound.entity))
    }

    /// The rows across the key path `key`, which must end with its only to-many relationship (`@count`,
    /// aggregates, `SUBQUERY`), and their entity.
    func rowsAcross(_ key: FetchPredicate.Key, for what: String, in scope: Scope) throws -> (Entity, [Row]) {
        let (row, path) = try start(key, in: scope)
        guard let toMany = path.firstToManyHop, toMany == path.hops.count - 1 else {
            throw FetchKitError.invalidPredicate(
                "\(what) needs a to-many relationship; '\(key)' is not one", offset: key.offset)
        }
        let hop = path.hops[toMany]
        let parent = database.follow(path.hops[..<toMany], from: row)
        return (hop.destination, parent.map { children(hop, of: $0) } ?? [])
    }

    /// The rows of the to-many `hop`'s destination whose foreign key names `parent`.
    ///
    /// - Complexity: O(*m*) for the destination's *m* rows on the first call for a hop, O(1) after.
    private func children(_ hop: ResolvedKeyPath.Hop, of parent: Row) -> [Row] {
        let key = ChildrenKey(entity: hop.destination.name, foreignKey: hop.foreignKey.name)
        let index: [Value: [Row]]
        if let known = children[key] {
            index = known
        } else {
            index = Dictionary(grouping: database.rows(of: hop.destination.name)) { $0[hop.foreignKey.name] ?? .null }
            children[key] = index
        }
        guard let parentKey = parent[hop.source.primaryKey.name], !parentKey.isNull else { return [] }
        return index[parentKey] ?? []
    }

    private struct ChildrenKey: Hashable {
        let entity: String
        let foreignKey: String
    }

    struct PairTypes: Hashable {
        let left: AttributeType
        let right: AttributeType
    }

    private struct ComparedKey: Hashable {
        let comparison: FetchPredicate.Comparison
        let types: PairTypes
    }
}
