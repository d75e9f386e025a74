import Foundation

// Each supported `PredicateExpressions` type says what it stands for; its children are translated
// through `PredicateTranslation.node(_:)`, which names any child it cannot translate.

extension PredicateExpressions.KeyPath: FetchPredicateTranslatable {
    /// A stored property or relationship of a record (`$0.title`, `$0.category`), or the count or emptiness of
    /// a to-many relationship (`$0.todos.count`, `$0.todos.isEmpty`).
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        if let variable = root as? any PredicateVariable {
            guard let scope = translation.scope(of: variable.variableID) else {
                throw PredicateTranslation<R>.unsupported(self, "reads a variable FetchKit did not bind")
            }
            guard let node = translation.member(keyPath, in: scope) else {
                throw PredicateTranslation<R>.unsupported(
                    self, "uses key path \(keyPath), which is not a stored attribute or relationship")
            }
            return node
        }
        guard case .relationship(let key, _, toMany: true) = try translation.node(root) else {
            throw PredicateTranslation<R>.unsupported(
                self, "reads a property of a property; only a record's attributes and relationships map to columns")
        }
        switch kind {
        case .collectionCount?: return .count(key)
        case .collectionIsEmpty?:
            return .predicate(.comparison(.init(.count(key), .equal, .value(.integer(0)))))
        default:
            throw PredicateTranslation<R>.unsupported(
                self, "reads \(keyPath) of a to-many relationship; only count, isEmpty and contains(where:) map to SQL")
        }
    }
}

/// A `PredicateExpressions.Variable` of any record type, for reading its identifier.
protocol PredicateVariable {
    /// The variable's identifier.
    var variableID: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: PredicateVariable {
    var variableID: PredicateExpressions.VariableID { key }
}

extension PredicateExpressions.Value: FetchPredicateTranslatable {
    /// A captured constant.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        guard let node = PredicateTranslation<R>.constantNode(value) else {
            throw PredicateTranslation<R>.unsupported(self, "holds a \(Output.self), which is not an attribute value")
        }
        return node
    }
}

extension PredicateExpressions.NilLiteral: FetchPredicateTranslatable {
    /// `nil`.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        .value(.null)
    }
}

extension PredicateExpressions.ForcedUnwrap: FetchPredicateTranslatable {
    /// `$0.due!`: the property itself (in SQL a `NULL` makes the comparison false instead of trapping).
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        let node = try translation.node(inner)
        guard case .key = node else {
            throw PredicateTranslation<R>.unsupported(self, "unwraps something other than a property")
        }
        return node
    }
}

extension PredicateExpressions.Equal: FetchPredicateTranslatable {
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        try translation.comparison(lhs, .equal, rhs)
    }
}

extension PredicateExpressions.NotEqual: FetchPredicateTranslatable {
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        try translation.comparison(lhs, .notEqual, rhs)
    }
}

extension PredicateExpressions.Comparison: FetchPredicateTranslatable {
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        let converted: FetchPredicate.Operator
        switch op {
        case .lessThan: converted = .lessThan
        case .lessThanOrEqual: converted = .lessThanOrEqual
        case .greaterThan: converted = .greaterThan
        case .greaterThanOrEqual: converted = .greaterThanOrEqual
        @unknown default: throw PredicateTranslation<R>.unsupported(self, "uses an unknown operator")
        }
        return try translation.comparison(lhs, converted, rhs)
    }
}

extension PredicateExpressions.Conjunction: FetchPredicateTranslatable {
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        .predicate(try translation.predicate(lhs) && translation.predicate(rhs))
    }
}

extension PredicateExpressions.Disjunction: FetchPredicateTranslatable {
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        .predicate(try translation.predicate(lhs) || translation.predicate(rhs))
    }
}

extension PredicateExpressions.Negation: FetchPredicateTranslatable {
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        .predicate(.not(try translation.predicate(wrapped)))
    }
}

extension PredicateExpressions.SequenceContains: FetchPredicateTranslatable {
    /// `[1, 2].contains($0.priority)`: `priority IN {1, 2}`.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        guard case .list(let values) = try translation.node(sequence) else {
            throw PredicateTranslation<R>.unsupported(self, "searches something other than a constant array")
        }
        return .predicate(.comparison(.init(try translation.operand(element), .in, .list(values))))
    }
}

extension PredicateExpressions.CollectionContainsCollection: FetchPredicateTranslatable {
    /// `$0.title.contains("x")`: `title CONTAINS "x"` (an empty needle keeps Swift's meaning: true).
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        try translation.substringComparison(base, .contains, other)
    }
}

extension PredicateExpressions.SequenceStartsWith: FetchPredicateTranslatable {
    /// `$0.title.starts(with: "x")`: `title BEGINSWITH "x"` (an empty prefix keeps Swift's meaning: true).
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        try translation.substringComparison(base, .beginsWith, prefix)
    }
}

extension PredicateExpressions.ClosedRange: FetchPredicateTranslatable {
    /// `lower...upper` with constant bounds.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        guard case .value(let low) = try translation.node(lower), case .value(let high) = try translation.node(upper)
        else { throw PredicateTranslation<R>.unsupported(self, "has a bound that is not a constant") }
        return .range(lower: low, upper: high, closed: true)
    }
}

extension PredicateExpressions.Range: FetchPredicateTranslatable {
    /// `lower..<upper` with constant bounds.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        guard case .value(let low) = try translation.node(lower), case .value(let high) = try translation.node(upper)
        else { throw PredicateTranslation<R>.unsupported(self, "has a bound that is not a constant") }
        return .range(lower: low, upper: high, closed: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: FetchPredicateTranslatable {
    /// `(1...3).contains($0.priority)`: `priority BETWEEN {1, 3}`; a half-open range is
    /// `priority >= 1 AND priority < 3`.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        guard case .range(let lower, let upper, let closed) = try translation.node(range) else {
            throw PredicateTranslation<R>.unsupported(self, "searches something other than a constant range")
        }
        let subject = try translation.operand(element)
        if closed {
            return .predicate(.comparison(.init(subject, .between, .list([lower, upper]))))
        }
        return .predicate(
            .and([
                .comparison(.init(subject, .greaterThanOrEqual, .value(lower))),
                .comparison(.init(subject, .lessThan, .value(upper)))
            ]))
    }
}

extension PredicateExpressions.UnaryMinus: FetchPredicateTranslatable {
    /// `-0.5`: a negative constant (negating a property is arithmetic, which has no translation).
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        switch try translation.node(wrapped) {
        case .value(.integer(let value)) where value != .min: return .value(.integer(-value))
        case .value(.double(let value)): return .value(.double(-value))
        default: throw PredicateTranslation<R>.unsupported(self, "negates something other than a number constant")
        }
    }
}
