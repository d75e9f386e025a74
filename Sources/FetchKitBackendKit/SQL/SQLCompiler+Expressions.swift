@_spi(Backend) import FetchKit

/// Arithmetic, aggregates, `SUBQUERY` counts and key paths from subquery variables, compiled to SQL that
/// means the same on every dialect.
extension SQLCompiler {
    /// Resolves a key path in `scope`, or in the scope of the subquery variable it starts with (`$t.priority`),
    /// returning the scope it starts from.
    func resolve(_ key: FetchPredicate.Key, in scope: QueryScope) throws -> (QueryScope, ResolvedKeyPath) {
        guard let variable = key.variable else { return (scope, try schema.resolve(key, from: scope.entity)) }
        guard let bound = scope.variables[variable] else {
            throw FetchKitError.invalidPredicate(
                "$\(variable) in \(SafeText.quoted(key)) is not the variable of an enclosing SUBQUERY",
                offset: key.offset)
        }
        return (bound, try schema.resolve(key.droppingVariable, from: bound.entity))
    }

    /// A correlated subquery scope over the objects across the to-many key path `key`, and its correlation.
    func relatedRows(
        _ key: FetchPredicate.Key, for what: String, in scope: QueryScope
    ) throws -> (QueryScope, String) {
        let (base, path) = try resolve(key, in: scope)
        guard let toMany = path.firstToManyHop, toMany == path.hops.count - 1 else {
            throw FetchKitError.invalidPredicate(
                "\(what) needs a to-many relationship; \(SafeText.quoted(key)) is not one", offset: key.offset)
        }
        return correlatedSubquery(path, toManyAt: toMany, in: base)
    }

    /// `(a + b)`, `(a - b)`, `(a * b)`; `/` divides as floating point, and by zero gives `NULL` (PostgreSQL
    /// would raise an error, SQLite give `NULL`).
    func arithmetic(
        _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.ArithmeticOperator, _ rhs: FetchPredicate.Operand,
        in scope: QueryScope
    ) throws -> SQLOperand {
        let right = try operand(rhs, in: scope)
        if case .value(.integer(0)) = lhs.node, op == .subtract {
            return SQLOperand(sql: "(-" + right.sql + ")", type: right.type, isNullable: right.isNullable)
        }
        let left = try operand(lhs, in: scope)
        let isNullable = left.isNullable || right.isNullable
        guard op == .divide else {
            let type: AttributeType = left.type == .double || right.type == .double ? .double : .integer
            return SQLOperand(
                sql: "(" + left.sql + " \(op.rawValue) " + right.sql + ")", type: type, isNullable: isNullable)
        }
        let double = dialect.floatingPointCastType
        let sql = "(CAST(" + left.sql + " AS \(double)) / NULLIF(CAST(" + right.sql + " AS \(double)), 0))"
        return SQLOperand(sql: sql, type: .double, isNullable: true)
    }

    /// `(SELECT SUM(…) FROM related WHERE correlation)`: `@sum` is 0 over no object, the others `NULL`.
    func aggregate(
        _ function: FetchPredicate.AggregateFunction, collection: FetchPredicate.Key, value: FetchPredicate.Key,
        in scope: QueryScope
    ) throws -> SQLOperand {
        let (sub, correlation) = try relatedRows(collection, for: "@\(function.rawValue)", in: scope)
        let path = try schema.resolve(value, from: sub.entity)
        let (column, _) = reading(path, in: sub)
        let type = path.attribute.type
        let selected: SQLFragment
        switch function {
        case .sum: selected = SQLFragment("COALESCE(SUM(\(column)), 0)")
        case .avg: selected = SQLFragment("CAST(AVG(\(column)) AS \(dialect.floatingPointCastType))")
        case .min: selected = "MIN(" + collated(SQLFragment(column), type: type) + ")"
        case .max: selected = "MAX(" + collated(SQLFragment(column), type: type) + ")"
        }
        let sql = "(SELECT " + selected + " FROM " + sub.fromClause(dialect: dialect) + " WHERE " + correlation + ")"
        return SQLOperand(
            sql: sql, type: function == .avg ? .double : type, isNullable: function != .sum)
    }

    /// `(SELECT COUNT(*) FROM related WHERE correlation AND condition)`, the subquery's variable standing for
    /// the related table's row while its predicate compiles.
    func subqueryCount(_ subquery: FetchPredicate.Subquery, in scope: QueryScope) throws -> SQLOperand {
        let (sub, correlation) = try relatedRows(subquery.collection, for: "SUBQUERY", in: scope)
        let enclosing = scope.variables[subquery.variable]
        scope.variables[subquery.variable] = sub
        defer { scope.variables[subquery.variable] = enclosing }
        let inner = try condition(subquery.predicate, in: scope)
        let sql =
            "(SELECT COUNT(*) FROM " + sub.fromClause(dialect: dialect) + " WHERE " + correlation + " AND "
            + inner.grouped + ")"
        return SQLOperand(sql: sql, type: .integer, isNullable: false)
    }

    /// `lhs BETWEEN low AND high` with bounds that are key paths or expressions.
    func between(
        _ lhs: SQLOperand, _ low: FetchPredicate.Operand, _ high: FetchPredicate.Operand,
        options: FetchPredicate.StringOptions, in scope: QueryScope
    ) throws -> SQLCondition {
        let lower = try operand(low, in: scope)
        let upper = try operand(high, in: scope)
        let sql =
            try ordered(lhs, options: options) + " BETWEEN " + bound(lower.sql, options, type: lhs.type)
            + " AND " + bound(upper.sql, options, type: lhs.type)
        return SQLCondition(sql: sql, isNullable: lhs.isNullable || lower.isNullable || upper.isNullable)
    }
}
