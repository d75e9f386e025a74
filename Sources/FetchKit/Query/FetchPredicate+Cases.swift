/// The builders of predicates and operands, named after the cases of their syntax trees, so that
/// `.and([a, b])` or `.comparison(.init(.key("x"), .equal, .value(.integer(1))))` reads as it always has.
extension FetchPredicate {
    /// The predicate that every object satisfies.
    public static let `true` = FetchPredicate(.constant(true))
    /// The predicate that no object satisfies.
    public static let `false` = FetchPredicate(.constant(false))

    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    public static func constant(_ value: Bool) -> FetchPredicate { FetchPredicate(.constant(value)) }

    /// All of the predicates (`AND`, `&&`). An empty list is true.
    public static func and(_ predicates: [FetchPredicate]) -> FetchPredicate { FetchPredicate(.and(predicates)) }

    /// Any of the predicates (`OR`, `||`). An empty list is false.
    public static func or(_ predicates: [FetchPredicate]) -> FetchPredicate { FetchPredicate(.or(predicates)) }

    /// The negation (`NOT`, `!`).
    public static func not(_ predicate: FetchPredicate) -> FetchPredicate { FetchPredicate(.not(predicate)) }

    /// A comparison of two operands.
    public static func comparison(_ comparison: Comparison) -> FetchPredicate {
        FetchPredicate(.comparison(comparison))
    }
}

extension FetchPredicate.Operand {
    /// A key path such as `title` or `category.name`.
    public static func key(_ key: FetchPredicate.Key) -> Self { Self(.key(key)) }

    /// A constant.
    public static func value(_ value: Value) -> Self { Self(.value(value)) }

    /// A list of constants (`{1, 2, 3}` or an array argument).
    public static func list(_ values: [Value]) -> Self { Self(.list(values)) }

    /// The number of objects across a to-many key path (`todos.@count`).
    public static func count(_ key: FetchPredicate.Key) -> Self { Self(.count(key)) }

    /// An unresolved `$VARIABLE`; see ``FetchPredicate/substituting(_:)``.
    public static func variable(_ name: String, offset: Int?) -> Self { Self(.variable(name, offset: offset)) }

    /// `SELF`: the evaluated object, compared through its primary key.
    public static let object = Self(.object)

    /// A list literal with key paths, variables or expressions among its elements (`{lo, hi}`,
    /// `{$LOWER, $UPPER}`); it becomes a ``list(_:)`` once every element is a constant.
    public static func elements(_ elements: [Self]) -> Self { Self(.elements(elements)) }

    /// `lhs + rhs`, `lhs - rhs`, `lhs * rhs` or `lhs / rhs` over numbers; unary minus is `0 - x`.
    public static func arithmetic(_ lhs: Self, _ op: FetchPredicate.ArithmeticOperator, _ rhs: Self) -> Self {
        Self(.arithmetic(lhs, op, rhs))
    }

    /// `@sum`, `@avg`, `@min` or `@max` of `value`, read on every object across the to-many key path
    /// `collection`: `todos.@sum.estimate` is `.aggregate(.sum, collection: "todos", value: "estimate")`.
    public static func aggregate(
        _ function: FetchPredicate.AggregateFunction, collection: FetchPredicate.Key, value: FetchPredicate.Key
    ) -> Self {
        Self(.aggregate(function, collection: collection, value: value))
    }

    /// The number of objects a ``FetchPredicate/Subquery`` selects: `SUBQUERY(todos, $t, $t.done == NO).@count`.
    public static func subquery(_ subquery: FetchPredicate.Subquery) -> Self { Self(.subquery(subquery)) }
}
