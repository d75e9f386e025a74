extension RoutePlan {
    /// The range the top-level conjuncts of `predicate` require of one column, to index the controller by
    /// (``RangeIndex``) when it has no equality conjunct: `<`, `<=`, `>`, `>=`, `BETWEEN` against constants of the
    /// column's own type, and `BEGINSWITH` a literal prefix on text, without `[c]` / `[d]`. Several conjuncts on
    /// one column narrow one range; a column bounded on both sides is preferred.
    ///
    /// The range is a superset of what the conjuncts match (its bounds are inclusive): the router still
    /// evaluates the predicate of each route it finds.
    static func rangeConjunct(
        of predicate: FetchPredicate, entity: Entity, schema: Schema
    ) -> (column: String, range: RangeIndex.Range)? {
        let conjuncts: [FetchPredicate]
        switch predicate.node {
        case .and(let parts): conjuncts = parts
        case .comparison: conjuncts = [predicate]
        default: return nil
        }
        var columns: [String] = []
        var ranges: [String: RangeIndex.Range] = [:]
        for case .comparison(let comparison) in conjuncts.lazy.map(\.node)
        where comparison.quantifier == .one && comparison.options.isEmpty {
            // The request was validated, so its key paths resolve; one that did not would only go unindexed.
            // The request was validated: a key that does not resolve here only means no index from it.
            guard case .key(let key) = comparison.lhs.node, let path = try? schema.resolve(key, from: entity),
                !path.crossesToMany
            else { continue }
            let type = path.attribute.type
            // (`Value` is `nil`-literal expressible: `.none` says "no bound", not `NULL`.)
            func own(_ value: Value) -> Value? { !value.isNull && value.attributeType == type ? value : .none }
            var lower: Value?
            var upper: RangeIndex.Upper?
            switch (comparison.op, comparison.rhs.node) {
            case (.lessThan, .value(let value)), (.lessThanOrEqual, .value(let value)):
                upper = own(value).map { .value($0) }
            case (.greaterThan, .value(let value)), (.greaterThanOrEqual, .value(let value)):
                lower = own(value)
            case (.between, .list(let list)) where list.count == 2:
                lower = own(list[0])
                upper = own(list[1]).map { .value($0) }
                guard lower != nil, upper != nil else { continue }
            case (.beginsWith, .value(.text(let needle))) where type == .text:
                let prefix = literalPrefix(of: needle)
                guard !prefix.isEmpty else { continue }
                lower = .text(prefix)
                upper = .prefix(prefix)
            default:
                continue
            }
            guard lower != nil || upper != nil else { continue }
            let column = key.description
            var range = ranges[column] ?? RangeIndex.Range()
            if ranges[column] == nil { columns.append(column) }
            if let lower, range.lower.map({ Value.databaseOrder(lower, $0) == .orderedDescending }) ?? true {
                range.lower = lower
            }
            if let upper, range.upper.map({ RangeIndex.Upper.compare(upper, $0) == .orderedAscending }) ?? true {
                range.upper = upper
            }
            ranges[column] = range
        }
        let column =
            columns.first { ranges[$0]?.lower != nil && ranges[$0]?.upper != nil } ?? columns.first
        return column.flatMap { column in ranges[column].map { (column, $0) } }
    }

    /// The part of a `BEGINSWITH` needle before its first wildcard or escape (`*`, `?`, `%`, `_`, `\`): every
    /// text the needle matches starts with it.
    static func literalPrefix(of needle: String) -> String {
        let wildcards = Set("*?%_\\".unicodeScalars)
        var prefix = String.UnicodeScalarView()
        for scalar in needle.unicodeScalars {
            if wildcards.contains(scalar) { break }
            prefix.append(scalar)
        }
        return String(prefix)
    }
}

/// A plan's range conjunct: its column and the values the predicate allows in it.
final class RangeConjunct: Sendable {
    let column: String
    let range: RangeIndex.Range

    init(_ conjunct: (column: String, range: RangeIndex.Range)) {
        self.column = conjunct.column
        self.range = conjunct.range
    }
}
