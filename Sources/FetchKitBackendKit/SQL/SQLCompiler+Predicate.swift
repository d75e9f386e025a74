@_spi(Backend) import FetchKit

/// A compiled boolean expression and whether it can be SQL `NULL` (unknown).
///
/// FetchKit predicates are two-valued, as in Foundation: a comparison with `NULL` is false, so
/// `NOT (priority > 3)` holds for a todo without a priority. A negation of a condition that may be
/// `NULL` is therefore written `NOT COALESCE((cond), FALSE)`.
struct SQLCondition {
    var sql: SQLFragment
    var isNullable: Bool
    /// Whether `sql` can follow `NOT` as is (a parenthesised group, `EXISTS (…)`).
    var isGrouped = false

    static let alwaysTrue = SQLCondition(sql: "1 = 1", isNullable: false)
    static let alwaysFalse = SQLCondition(sql: "1 = 0", isNullable: false)

    /// The condition in parentheses unless it already is a group.
    var grouped: SQLFragment { isGrouped ? sql : sql.parenthesized }

    /// The two-valued negation.
    var negated: SQLCondition {
        if isNullable {
            return SQLCondition(sql: "NOT COALESCE(" + grouped + ", FALSE)", isNullable: false)
        }
        return SQLCondition(sql: "NOT " + grouped, isNullable: false)
    }
}

/// A compiled scalar operand: its SQL, its type and whether it can be `NULL`.
struct SQLOperand {
    var sql: SQLFragment
    var type: AttributeType
    var isNullable: Bool
    /// The column as it is, when comparisons with some values may use it (and its index) directly.
    var native: NativeOperand?

    /// ``native`` when every one of `values` may be compared with the column as it is, under `options`.
    func native(for values: [Value], options: FetchPredicate.StringOptions) -> NativeOperand? {
        guard options.isEmpty, let native, values.allSatisfy(native.accepts) else { return nil }
        return native
    }
}

extension SQLCompiler {
    /// Compiles a validated predicate evaluated against the rows of `scope`.
    func condition(_ predicate: FetchPredicate, in scope: QueryScope) throws -> SQLCondition {
        switch predicate.node {
        case .constant(let value):
            return value ? .alwaysTrue : .alwaysFalse
        case .and(let predicates):
            return try combine(predicates, with: "AND", empty: .alwaysTrue, in: scope)
        case .or(let predicates):
            return try combine(predicates, with: "OR", empty: .alwaysFalse, in: scope)
        case .not(let predicate):
            return try condition(predicate, in: scope).negated
        case .comparison(let comparison):
            return try self.comparison(comparison, in: scope)
        }
    }

    private func combine(
        _ predicates: [FetchPredicate], with keyword: String, empty: SQLCondition, in scope: QueryScope
    ) throws -> SQLCondition {
        combined(try predicates.map { try condition($0, in: scope) }, with: keyword, empty: empty)
    }

    /// `parts` joined by `AND` or `OR`, in parentheses.
    ///
    /// A long chain is grouped by ``chainGroupSize`` terms, and the groups again, so that no parenthesised run
    /// is longer: SQLite parses `a OR b OR c …` into a tree one level deeper per operator and refuses one
    /// deeper than 1,000 levels. The grouping is a loop, not a recursion, and changes no answer.
    private func combined(_ parts: [SQLCondition], with keyword: String, empty: SQLCondition) -> SQLCondition {
        guard let first = parts.first else { return empty }
        if parts.count == 1 { return first }
        var level = parts
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: Self.chainGroupSize).map { start in
                let group = level[start..<min(start + Self.chainGroupSize, level.count)]
                if group.count == 1, let only = group.first { return only }
                return SQLCondition(
                    sql: group.map(\.sql).joined(separator: " \(keyword) ").parenthesized,
                    isNullable: group.contains { $0.isNullable }, isGrouped: true)
            }
        }
        return level[0]
    }

    /// The most terms of an `AND` or `OR` chain compiled into one parenthesised run.
    static let chainGroupSize = 100

    // MARK: - Comparisons

    /// The comparison compiled; an error without a position of its own is placed where the comparison starts.
    private func comparison(_ comparison: FetchPredicate.Comparison, in scope: QueryScope) throws -> SQLCondition {
        do {
            return try compiled(comparison, in: scope)
        } catch let error as FetchKitError {
            throw error.located(at: comparison.lhs.offset ?? comparison.rhs.offset)
        }
    }

    private func compiled(_ comparison: FetchPredicate.Comparison, in scope: QueryScope) throws -> SQLCondition {
        if comparison.quantifier != .one {
            return try quantified(comparison, in: scope)
        }
        let lhs = try operand(comparison.lhs, in: scope)
        return try apply(comparison.op, to: lhs, comparison.rhs, options: comparison.options, in: scope)
    }

    /// `ANY`/`ALL`/`NONE`: a correlated `EXISTS` over the to-many relationship's rows.
    private func quantified(_ comparison: FetchPredicate.Comparison, in scope: QueryScope) throws -> SQLCondition {
        guard case .key(let key) = comparison.lhs.node else {
            throw FetchKitError.invalidPredicate(
                "\(comparison.quantifier.notation) needs a key path on its left", offset: comparison.lhs.offset)
        }
        let (base, path) = try resolve(key, in: scope)
        guard let toMany = path.firstToManyHop else {
            throw FetchKitError.invalidPredicate(
                "\(comparison.quantifier.notation) needs a key path that crosses a to-many relationship; "
                    + "\(SafeText.quoted(key)) does not",
                offset: key.offset)
        }
        let (sub, correlation) = correlatedSubquery(path, toManyAt: toMany, in: base)
        let remainder = path.hops[(toMany + 1)...]
        guard remainder.allSatisfy(\.isToOne) else {
            throw FetchKitError.invalidPredicate(
                "\(SafeText.quoted(key)) crosses more than one to-many relationship", offset: key.offset)
        }
        let column = sub.alias(after: remainder, dialect: dialect) + "." + quote(path.attribute.column)
        let (sql, native) = reading(column, of: path.attribute, in: path.entity.table)
        let lhs = SQLOperand(
            sql: SQLFragment(sql), type: path.attribute.type,
            isNullable: path.attribute.isOptional || !remainder.isEmpty,
            native: native)
        var inner = try apply(comparison.op, to: lhs, comparison.rhs, options: comparison.options, in: scope)
        if comparison.quantifier == .all { inner = inner.negated }
        let exists =
            "EXISTS (SELECT 1 FROM " + sub.fromClause(dialect: dialect) + " WHERE " + correlation
            + " AND " + inner.sql + ")"
        let condition = SQLCondition(sql: exists, isNullable: false, isGrouped: true)
        return comparison.quantifier == .any ? condition : condition.negated
    }

    /// A subquery scope over the destination of the to-many hop at `index`, and the condition that
    /// ties its rows to the current row of `scope` (`s1."category_id" = t0."id"`).
    func correlatedSubquery(
        _ path: ResolvedKeyPath, toManyAt index: Int, in scope: QueryScope
    ) -> (QueryScope, String) {
        let parent = scope.alias(after: path.hops[..<index], dialect: dialect)
        let hop = path.hops[index]
        let sub = scope.subquery(of: hop.destination)
        let correlation =
            "\(sub.alias).\(quote(hop.foreignKey.column)) = "
            + "\(parent).\(quote(hop.source.primaryKeyAttribute.column))"
        return (sub, correlation)
    }

    /// A key path, `@count` or `SELF` as a scalar operand of `scope`.
    func operand(_ operand: FetchPredicate.Operand, in scope: QueryScope) throws -> SQLOperand {
        switch operand.node {
        case .key(let key):
            let (base, path) = try resolve(key, in: scope)
            guard !path.crossesToMany else {
                throw FetchKitError.invalidPredicate(
                    "\(SafeText.quoted(key)) crosses a to-many relationship: use ANY, ALL or NONE, or @count",
                    offset: key.offset)
            }
            let (sql, native) = reading(path, in: base)
            return SQLOperand(
                sql: SQLFragment(sql), type: path.attribute.type, isNullable: path.isNullable, native: native)
        case .count(let key):
            let (sub, correlation) = try relatedRows(key, for: "@count", in: scope)
            let sql = "(SELECT COUNT(*) FROM " + sub.fromClause(dialect: dialect) + " WHERE " + correlation + ")"
            return SQLOperand(sql: SQLFragment(sql), type: .integer, isNullable: false)
        case .variable(let name, let offset):
            guard let bound = scope.variables[name] else {
                throw FetchKitError.invalidPredicate(
                    "a variable cannot be compared here; validate the predicate first", offset: offset)
            }
            let key = bound.entity.primaryKeyAttribute
            let (sql, native) = reading(bound.alias + "." + quote(key.column), of: key, in: bound.entity.table)
            return SQLOperand(sql: SQLFragment(sql), type: key.type, isNullable: false, native: native)
        case .arithmetic(let lhs, let op, let rhs):
            return try arithmetic(lhs, op, rhs, in: scope)
        case .aggregate(let function, let collection, let value):
            return try aggregate(function, collection: collection, value: value, in: scope)
        case .subquery(let subquery):
            return try subqueryCount(subquery, in: scope)
        case .object:
            let key = scope.entity.primaryKeyAttribute
            let (sql, native) = reading(scope.alias + "." + quote(key.column), of: key, in: scope.entity.table)
            return SQLOperand(sql: SQLFragment(sql), type: key.type, isNullable: false, native: native)
        case .value(let value):
            return SQLOperand(
                sql: .binding(value), type: value.attributeType ?? .text, isNullable: value.isNull)
        case .list, .elements:
            throw FetchKitError.invalidPredicate(
                "a list cannot be compared here; validate the predicate first", offset: operand.offset)
        }
    }

    // MARK: - Operators

    private func apply(
        _ op: FetchPredicate.Operator, to lhs: SQLOperand, _ rhs: FetchPredicate.Operand,
        options: FetchPredicate.StringOptions, in scope: QueryScope
    ) throws -> SQLCondition {
        switch op {
        case .equal, .notEqual:
            return try equality(op == .equal, lhs, rhs, options: options, in: scope)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let right = try operand(rhs, in: scope)
            if case .value(let value) = rhs.node, let native = lhs.native(for: [value], options: options),
                native.comparesOrder(as: lhs.type)
            {
                let sql = native.column + " \(op.rawValue) " + comparedNatively(value, with: native)
                return SQLCondition(sql: sql, isNullable: lhs.isNullable || right.isNullable)
            }
            let sql =
                try ordered(lhs, options: options) + " \(op.rawValue) " + bound(right.sql, options, type: lhs.type)
            return SQLCondition(sql: sql, isNullable: lhs.isNullable || right.isNullable)
        case .between:
            if case .elements(let bounds) = rhs.node, bounds.count == 2 {
                return try between(lhs, bounds[0], bounds[1], options: options, in: scope)
            }
            guard case .list(let bounds) = rhs.node, bounds.count == 2 else {
                throw FetchKitError.invalidPredicate("BETWEEN needs a list of two values on its right", offset: nil)
            }
            let sql: SQLFragment
            if let native = lhs.native(for: bounds, options: options), native.comparesOrder(as: lhs.type) {
                sql =
                    native.column + " BETWEEN " + comparedNatively(bounds[0], with: native) + " AND "
                    + comparedNatively(bounds[1], with: native)
            } else {
                sql =
                    try ordered(lhs, options: options) + " BETWEEN "
                    + bound(.binding(bounds[0]), options, type: lhs.type)
                    + " AND " + bound(.binding(bounds[1]), options, type: lhs.type)
            }
            return SQLCondition(sql: sql, isNullable: lhs.isNullable || bounds.contains { $0.isNull })
        case .in:
            if case .elements(let elements) = rhs.node {
                let parts = try elements.map { try equality(true, lhs, $0, options: options, in: scope) }
                return combined(parts, with: "OR", empty: .alwaysFalse)
            }
            guard case .list(let values) = rhs.node else {
                throw FetchKitError.invalidPredicate("IN needs a list on its right", offset: nil)
            }
            return try membership(lhs, in: values, options: options)
        case .beginsWith, .endsWith, .contains, .like:
            return try patternMatch(op, lhs, rhs, options: options, in: scope)
        case .matches:
            guard let regex = dialect.regexOperator else {
                throw FetchKitError.unsupported(
                    "MATCHES", detail: "regular expressions differ between backends", offset: nil)
            }
            let right = try operand(rhs, in: scope)
            let sql = try folded(lhs.sql, options) + " \(regex) " + folded(right.sql, options)
            return SQLCondition(sql: sql, isNullable: lhs.isNullable || right.isNullable)
        }
    }

    /// `==` and `!=` with Foundation's `NULL` semantics: `nil == nil` holds, `NULL != 5` holds.
    private func equality(
        _ isEqual: Bool, _ lhs: SQLOperand, _ rhs: FetchPredicate.Operand,
        options: FetchPredicate.StringOptions, in scope: QueryScope
    ) throws -> SQLCondition {
        if case .value(.null) = rhs.node {
            return SQLCondition(sql: lhs.sql + (isEqual ? " IS NULL" : " IS NOT NULL"), isNullable: false)
        }
        let right = try operand(rhs, in: scope)
        var left = try folded(lhs.sql, options)
        var value = try folded(right.sql, options)
        if case .value(let bound) = rhs.node, let native = lhs.native(for: [bound], options: options) {
            left = native.column
            value = comparedNatively(bound, with: native)
        }
        let eitherNullable = lhs.isNullable || right.isNullable
        if case .value = rhs.node {
            if isEqual { return SQLCondition(sql: left + " = " + value, isNullable: lhs.isNullable) }
            let op = lhs.isNullable ? dialect.nullSafeNotEqualOperator : "<>"
            return SQLCondition(sql: left + " \(op) " + value, isNullable: false)
        }
        let op =
            isEqual
            ? (eitherNullable ? dialect.nullSafeEqualOperator : "=")
            : (eitherNullable ? dialect.nullSafeNotEqualOperator : "<>")
        return SQLCondition(sql: left + " \(op) " + value, isNullable: false)
    }

    /// `IN`: inline placeholders, or one parameter through the dialect's list expansion when long.
    private func membership(
        _ lhs: SQLOperand, in list: [Value], options: FetchPredicate.StringOptions
    ) throws -> SQLCondition {
        let values = list.filter { !$0.isNull }
        let includesNull = values.count < list.count
        let nullTest = SQLCondition(sql: lhs.sql + " IS NULL", isNullable: false)
        guard !values.isEmpty else { return includesNull ? nullTest : .alwaysFalse }
        let native = lhs.native(for: values, options: options)
        let left = try native?.column ?? folded(lhs.sql, options)
        var condition: SQLCondition
        if options.isEmpty, values.count > dialect.inlineListLimit, let expansion = dialect.largeListExpansion,
            let encoded = expansion.encode(values), let arrayType = arrayType(of: lhs, native: native)
        {
            switch expansion {
            case .jsonEach:
                condition = SQLCondition(
                    sql: left + " IN (SELECT value FROM json_each(" + .binding(.text(encoded)) + "))",
                    isNullable: lhs.isNullable)
            case .anyArray:
                let cast = " AS " + arrayType + "[]))"
                condition = SQLCondition(
                    sql: left + " = ANY(CAST(" + .binding(.text(encoded)) + cast, isNullable: lhs.isNullable)
            }
        } else {
            let placeholders = try values.map { value in
                try native.map { comparedNatively(value, with: $0) } ?? folded(.binding(value), options)
            }.joined(separator: ", ")
            condition = SQLCondition(sql: left + " IN (" + placeholders + ")", isNullable: lhs.isNullable)
        }
        guard includesNull else { return condition }
        return SQLCondition(
            sql: (condition.sql + " OR " + nullTest.sql).parenthesized, isNullable: false, isGrouped: true)
    }

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` as SQL `LIKE … ESCAPE '\'`.
    private func patternMatch(
        _ op: FetchPredicate.Operator, _ lhs: SQLOperand, _ rhs: FetchPredicate.Operand,
        options: FetchPredicate.StringOptions, in scope: QueryScope
    ) throws -> SQLCondition {
        let pattern: SQLFragment
        var isNullable = lhs.isNullable
        let needle: LikePattern.Needle
        switch rhs.node {
        case .value(.text(let text)):
            needle = .text(text)
            pattern = .binding(.text(LikePattern.pattern(for: op, text)))
        case .value(.null):
            return .alwaysFalse
        case .key:
            guard op != .like else {
                throw FetchKitError.unsupported("LIKE with a key path as the pattern", offset: nil)
            }
            let right = try operand(rhs, in: scope)
            isNullable = isNullable || right.isNullable
            pattern = LikePattern.sqlPattern(for: op, escaping: right.sql)
            needle = .column(right.sql)
        default:
            throw FetchKitError.invalidPredicate("\(op.rawValue) needs a text or a key path on its right", offset: nil)
        }
        let sql = try folded(lhs.sql, options) + " LIKE " + folded(pattern, options) + " ESCAPE '\\'"
        return LikePattern.excludingEmptyNeedle(SQLCondition(sql: sql, isNullable: isNullable), op, needle)
    }

    /// `value` bound to be compared with the column of `native` as it is.
    private func comparedNatively(_ value: Value, with native: NativeOperand) -> SQLFragment {
        bind(value, native.native.comparisonBinding, typeName: native.native.typeName)
    }

    /// The element type of the array a long `IN` list is cast to: the standard type of `lhs`, or the native
    /// type when the list is compared with the column as it is; `nil` when such a list must stay inline.
    private func arrayType(of lhs: SQLOperand, native: NativeOperand?) -> String? {
        guard let native else { return dialect.columnType(for: lhs.type) }
        switch native.native.comparisonBinding {
        case .plain: return dialect.columnType(for: lhs.type)
        case .cast: return native.native.typeName
        case .utcTimestamp, .utcDate: return nil
        }
    }

    // MARK: - Folding and collation

    /// `sql` wrapped in the case fold (`[c]`) and then the diacritic fold (`[d]`) functions.
    func folded(_ sql: SQLFragment, _ options: FetchPredicate.StringOptions) throws -> SQLFragment {
        var result = sql
        if options.contains(.caseInsensitive) {
            result = dialect.caseFolded(result)
        }
        if options.contains(.diacriticInsensitive) {
            guard let unaccent = dialect.diacriticFoldFunction else {
                throw FetchKitError.unsupported(
                    "diacritic-insensitive comparison ([d]) on \(dialect.name)", offset: nil)
            }
            result = unaccent + "(" + result + ")"
        }
        return result
    }

    /// The left side of an order comparison: folded, and for text in the dialect's code-point collation.
    func ordered(_ lhs: SQLOperand, options: FetchPredicate.StringOptions) throws -> SQLFragment {
        collated(try folded(lhs.sql, options), type: lhs.type)
    }

    /// The right side of an order comparison: folded like the left, and collated like it too when the fold
    /// gave it an explicit collation of its own (`(lower($1 COLLATE "und-x-icu") COLLATE "C")`: PostgreSQL
    /// refuses to compare two different explicit collations).
    func bound(_ sql: SQLFragment, _ options: FetchPredicate.StringOptions, type: AttributeType) throws -> SQLFragment {
        let folded = try folded(sql, options)
        guard options.contains(.caseInsensitive), dialect.caseFoldCollation != nil else { return folded }
        // Parenthesized: a BETWEEN bound cannot take COLLATE bare.
        return collated(folded, type: type).parenthesized
    }

    /// `sql COLLATE "C"` for text when the dialect needs a collation for code-point order.
    func collated(_ sql: SQLFragment, type: AttributeType) -> SQLFragment {
        guard type == .text, let collation = dialect.textOrderCollation else { return sql }
        return sql + " COLLATE " + quote(collation)
    }
}
