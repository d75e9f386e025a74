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
    /// A relationship of a record (`$0.category`, `$0.todos`): its key and the records it leads to.
    case relationship(FetchPredicate.Key, destination: any Record.Type, toMany: Bool)
    /// The number of records in a to-many relationship: `$0.todos.count`.
    case count(FetchPredicate.Key)
}

/// What a predicate variable other than `$0` stands for: the related record an optional chain reached
/// (`$0.category?.name`, bound to `category`), or the element of a to-many relationship a closure tests
/// (`$0.todos.contains { $0.done }`, bound to a subquery variable).
struct PredicateScope {
    /// The key components that lead to the variable's record (`["category"]`, `["$e1"]`).
    var prefix: [String]
    /// The variable's record type.
    var type: any Record.Type
}

/// Translates the expressions of one `#Predicate` over records of type `R`.
struct PredicateTranslation<R: Record> {
    /// The predicate's own variable (`$0`).
    let variable: PredicateExpressions.VariableID
    /// The variables of optional chains and closures inside the predicate.
    var scopes: [PredicateExpressions.VariableID: PredicateScope] = [:]
    /// How many closures enclose the expression being translated (names subquery variables `$e1`, `$e2`…).
    var depth = 0

    /// The translation of a child expression in which `variable` stands for `scope`.
    func binding(_ variable: PredicateExpressions.VariableID, to scope: PredicateScope) -> PredicateTranslation {
        var copy = self
        copy.scopes[variable] = scope
        return copy
    }

    /// The scope of a variable: `$0`'s is the record itself.
    func scope(of variable: PredicateExpressions.VariableID) -> PredicateScope? {
        variable == self.variable ? PredicateScope(prefix: [], type: R.self) : scopes[variable]
    }

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
        case .value, .list, .range, .relationship, .count:
            throw Self.unsupported(expression, "is not a condition")
        }
    }

    /// `expression` as one side of a comparison: a property or a constant.
    func operand(_ expression: Any) throws -> FetchPredicate.Operand {
        switch try node(expression) {
        case .key(let key): return .key(key)
        case .value(let value): return .value(value)
        case .count(let key): return .count(key)
        case .relationship(let key, _, toMany: false): return .key(key)
        case .predicate, .list, .range, .relationship: throw Self.unsupported(expression, "cannot be compared in SQL")
        }
    }

    /// `lhs op rhs`, as written (validation moves a property to the left).
    func comparison(_ lhs: Any, _ op: FetchPredicate.Operator, _ rhs: Any) throws -> PredicateNode {
        if op == .equal || op == .notEqual, let condition = try conditionComparedToBool(lhs, op, rhs) {
            return .predicate(condition)
        }
        return .predicate(.comparison(.init(try operand(lhs), op, try operand(rhs))))
    }

    /// `$0.category?.todos.contains { … } == true`: a condition reached through an optional chain, compared to a
    /// constant Bool (a missing related record makes the chain `nil`, which equals neither, as the relationship's
    /// empty subquery does in SQL).
    private func conditionComparedToBool(_ lhs: Any, _ op: FetchPredicate.Operator, _ rhs: Any) throws
        -> FetchPredicate?
    {
        let (left, right) = (try node(lhs), try node(rhs))
        let condition: FetchPredicate
        let constant: Bool
        switch (left, right) {
        case (.predicate(let predicate), .value(.bool(let value))),
            (.value(.bool(let value)), .predicate(let predicate)):
            (condition, constant) = (predicate, value)
        default:
            return nil
        }
        return (constant == (op == .equal)) ? condition : .not(condition)
    }

    /// The node for the member `keyPath` of a record of `scope`'s type: an attribute's key, or a relationship.
    func member(_ keyPath: AnyKeyPath, in scope: PredicateScope) -> PredicateNode? {
        if let entityType = scope.type as? any EntityRecord.Type {
            switch entityType.storedMember(for: keyPath) {
            case .attribute(let name): return .key(FetchPredicate.Key(components: scope.prefix + [name]))
            case .toOne(let name, let destination):
                return .relationship(
                    FetchPredicate.Key(components: scope.prefix + [name]), destination: destination, toMany: false)
            case .toMany(let name, let destination):
                return .relationship(
                    FetchPredicate.Key(components: scope.prefix + [name]), destination: destination, toMany: true)
            case nil: return nil
            }
        }
        guard let property = PredicateKeyPathName.property(of: keyPath, root: scope.type) else { return nil }
        return .key(FetchPredicate.Key(components: scope.prefix + [scope.type.attributeName(forProperty: property)]))
    }

    /// "#Predicate construct PredicateExpressions.X<…> has no SQL translation".
    static func unsupported(_ expression: Any, _ reason: String = "has no SQL translation") -> FetchKitError {
        .unsupported("#Predicate construct PredicateExpressions.\(type(of: expression)) \(reason)")
    }
}
