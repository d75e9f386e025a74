extension FetchPredicate {
    /// Replaces every `$VARIABLE` with its value from `variables` (a list argument becomes a list).
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "priority BETWEEN $RANGE AND owner == $USER")
    /// let p = try template.substituting(["RANGE": [1, 3], "USER": "ada"])
    /// ```
    ///
    /// Variables not in the predicate are ignored.
    ///
    /// - Throws: ``FetchKitError/invalidPredicate(_:offset:)`` `"$NAME has no value"` for a variable missing
    ///   from `variables`, or when `BETWEEN`'s variable is not given a list of two values.
    public func substituting(_ variables: [String: any FormatArgument]) throws -> FetchPredicate {
        try substituted(variables)
    }

    private func substituted(_ variables: [String: any FormatArgument]) throws(FetchKitError) -> FetchPredicate {
        switch self {
        case .constant:
            return self
        case .and(let predicates):
            return .and(try Self.substituted(predicates, variables))
        case .or(let predicates):
            return .or(try Self.substituted(predicates, variables))
        case .not(let predicate):
            return .not(try predicate.substituted(variables))
        case .comparison(let comparison):
            return .comparison(try comparison.substituted(variables))
        }
    }

    private static func substituted(
        _ predicates: [FetchPredicate], _ variables: [String: any FormatArgument]
    ) throws(FetchKitError) -> [FetchPredicate] {
        var result: [FetchPredicate] = []
        result.reserveCapacity(predicates.count)
        for predicate in predicates { result.append(try predicate.substituted(variables)) }
        return result
    }
}

extension FetchPredicate.Comparison {
    /// The comparison with its `$VARIABLE`s replaced; `BETWEEN` must receive a list of two values.
    fileprivate func substituted(_ variables: [String: any FormatArgument]) throws(FetchKitError) -> Self {
        var comparison = self
        comparison.lhs = try lhs.substituting(variables)
        comparison.rhs = try rhs.substituting(variables)
        if op == .between, case .variable(let name, let offset) = rhs {
            guard case .list(let bounds) = comparison.rhs, bounds.count == 2 else {
                throw FetchKitError.invalidPredicate("BETWEEN needs a list of two values for $\(name)", offset: offset)
            }
        }
        return comparison
    }
}

extension FetchPredicate.Operand {
    /// The operand with a `$VARIABLE` replaced by its value.
    func substituting(_ variables: [String: any FormatArgument]) throws(FetchKitError) -> FetchPredicate.Operand {
        guard case .variable(let name, let offset) = self else { return self }
        guard let argument = variables[name] else {
            throw FetchKitError.invalidPredicate("$\(name) has no value", offset: offset)
        }
        switch argument.formatArgumentValue {
        case .value(let value): return .value(value)
        case .list(let values): return .list(values)
        }
    }
}
