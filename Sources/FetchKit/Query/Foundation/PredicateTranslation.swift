import Foundation

/// A `PredicateExpressions` type FetchKit knows how to translate.
///
/// The expression types conform unconditionally and translate their children through
/// ``PredicateTranslation``, so an unsupported child is reported by its own name.
protocol FetchPredicateTranslatable {
    /// The node this expression stands for.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode
}

/// What a translated `PredicateExpressions` node stands for.
enum PredicateNode {
    /// A boolean condition.
    case predicate(FetchPredicate)
    /// A property of the record.
    case key(FetchPredicate.Key)
    /// A constant.
    case value(Value)
    /// A constant sequence (the left side of `contains`).
    case list([Value])
    /// A constant range: `lower...upper` when closed, else `lower..<upper`.
    case range(lower: Value, upper: Value, closed: Bool)
}

/// Translates the expressions of one `#Predicate` over records of type `R`.
struct PredicateTranslation<R: Record> {
    /// The predicate's own variable (`$0`).
    let variable: PredicateExpressions.VariableID

    /// The node for any expression; unknown expression types throw `unsupported`.
    func node(_ expression: Any) throws -> PredicateNode {
        if let translatable = expression as? any FetchPredicateTranslatable {
            return try translatable.fetchPredicateNode(in: self)
        }
        if let node = try foundationFrameworkNode(expression) { return node }
        throw Self.unsupported(expression)
    }

    /// `expression` as a condition; a boolean property or constant stands for itself.
    func predicate(_ expression: Any) throws -> FetchPredicate {
        switch try node(expression) {
        case .predicate(let predicate):
            return predicate
        case .key(let key):
            return .comparison(.init(.key(key), .equal, .value(.bool(true))))
        case .value(.bool(let value)):
            return .constant(value)
        case .value, .list, .range:
            throw Self.unsupported(expression, "is not a condition")
        }
    }

    /// `expression` as one side of a comparison: a property or a constant.
    func operand(_ expression: Any) throws -> FetchPredicate.Operand {
        switch try node(expression) {
        case .key(let key): return .key(key)
        case .value(let value): return .value(value)
        case .predicate, .list, .range: throw Self.unsupported(expression, "cannot be compared in SQL")
        }
    }

    /// `lhs op rhs`, as written (validation moves a property to the left).
    func comparison(_ lhs: Any, _ op: FetchPredicate.Operator, _ rhs: Any) throws -> PredicateNode {
        .predicate(.comparison(.init(try operand(lhs), op, try operand(rhs))))
    }

    /// The attribute key of the record property `name`.
    func key(forProperty name: String) -> FetchPredicate.Key {
        FetchPredicate.Key(R.attributeName(forProperty: name))
    }

    /// "#Predicate construct PredicateExpressions.X<…> has no SQL translation".
    static func unsupported(_ expression: Any, _ reason: String = "has no SQL translation") -> FetchKitError {
        .unsupported("#Predicate construct PredicateExpressions.\(type(of: expression)) \(reason)")
    }
}
