extension FetchPredicate {
    /// Replaces every `$VARIABLE` with its value from `variables` (a list argument becomes a list).
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "priority BETWEEN $RANGE AND owner == $USER")
    /// let p = try template.substituting(["RANGE": [1, 3], "USER": "ada"])
    /// ```
    ///
    /// Variables not in the predicate are ignored, and so are the variables of `SUBQUERY`s inside it (`$t` in
    /// `SUBQUERY(todos, $t, $t.done == NO)`), which stand for the related objects.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate`` `"$NAME has no value"` for a variable missing
    ///   from `variables`, or when `BETWEEN`'s variable is not given a list of two values.
    public func substituting(_ variables: [String: any FormatArgument]) throws -> FetchPredicate {
        try substituted(variables, bound: [])
    }

    fileprivate func substituted(
        _ variables: [String: any FormatArgument], bound: Set<String>
    ) throws(FetchKitError) -> FetchPredicate {
        switch node {
        case .constant:
            return self
        case .and(let predicates):
            return .and(try Self.substituted(predicates, variables, bound: bound))
        case .or(let predicates):
            return .or(try Self.substituted(predicates, variables, bound: bound))
        case .not(let predicate):
            return .not(try predicate.substituted(variables, bound: bound))
        case .comparison(let comparison):
            return .comparison(try comparison.substituted(variables, bound: bound))
        }
    }

    private static func substituted(
        _ predicates: [FetchPredicate], _ variables: [String: any FormatArgument], bound: Set<String>
    ) throws(FetchKitError) -> [FetchPredicate] {
        var result: [FetchPredicate] = []
        result.reserveCapacity(predicates.count)
        for predicate in predicates { result.append(try predicate.substituted(variables, bound: bound)) }
        return result
    }
}

extension FetchPredicate.Comparison {
    /// The comparison with its `$VARIABLE`s replaced; `BETWEEN` must receive a list of two values.
    fileprivate func substituted(
        _ variables: [String: any FormatArgument], bound: Set<String>
    ) throws(FetchKitError) -> Self {
        var comparison = self
        comparison.lhs = try lhs.substituting(variables, bound: bound)
        comparison.rhs = try rhs.substituting(variables, bound: bound)
        if op == .between, case .variable(let name, let offset) = rhs.node, !bound.contains(name) {
            guard case .list(let bounds) = comparison.rhs.node, bounds.count == 2 else {
                throw FetchKitError.invalidPredicate("BETWEEN needs a list of two values for $\(name)", offset: offset)
            }
        }
        return comparison
    }
}

extension FetchPredicate.Operand {
    /// The operand with its `$VARIABLE`s replaced by their values, except those in `bound` (the variables of
    /// enclosing `SUBQUERY`s); a list literal whose elements all become constants becomes a `.list`.
    func substituting(
        _ variables: [String: any FormatArgument], bound: Set<String> = []
    ) throws(FetchKitError) -> FetchPredicate.Operand {
        switch node {
        case .variable(let name, let offset):
            guard !bound.contains(name) else { return self }
            guard let argument = variables[name] else {
                throw FetchKitError.invalidPredicate("$\(name) has no value", offset: offset)
            }
            switch argument.formatArgumentValue {
            case .value(let value): return .value(value)
            case .list(let values): return .list(values)
            }
        case .elements(let elements):
            var substituted: [FetchPredicate.Operand] = []
            for element in elements { substituted.append(try element.substituting(variables, bound: bound)) }
            return .collapsing(substituted)
        case .arithmetic(let lhs, let op, let rhs):
            return .arithmetic(
                try lhs.substituting(variables, bound: bound), op, try rhs.substituting(variables, bound: bound))
        case .subquery(var subquery):
            subquery.predicate = try subquery.predicate.substituted(
                variables, bound: bound.union([subquery.variable]))
            return .subquery(subquery)
        case .key, .value, .list, .count, .object, .aggregate:
            return self
        }
    }
}
