/// A small Swift DSL over attribute names: comparison operators on keys, `&&`, `||` and `!` on predicates.
///
/// ```swift
/// let p: FetchPredicate =
///     .key("done") == false && (.key("priority") > 2 || .key("title").beginsWith("x", .caseInsensitive))
/// let q: FetchPredicate = !(.key("notes") == nil) && .key("priority").in([1, 2, 3]) && .key("due").between(a, b)
/// let r: FetchPredicate = .any("todos.priority", .greaterThan, 3) || .key("todos").count > 2
/// let s: FetchPredicate = .key("priority") < .key("ordering")   // the right side is an `Operand`
/// ```
///
/// A string literal on the right is always text; compare two key paths with `.key(…)` on both sides.
extension FetchPredicate {
    /// The key path `path` (dotted; `todos.@count` counts a to-many relationship).
    public static func key(_ path: String) -> Key { Key(path) }

    /// Both predicates; nested `AND`s are flattened.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        switch (lhs.node, rhs.node) {
        case (.and(let left), .and(let right)): return .and(left + right)
        case (.and(let left), _): return .and(left + [rhs])
        case (_, .and(let right)): return .and([lhs] + right)
        default: return .and([lhs, rhs])
        }
    }

    /// Either predicate; nested `OR`s are flattened.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        switch (lhs.node, rhs.node) {
        case (.or(let left), .or(let right)): return .or(left + right)
        case (.or(let left), _): return .or(left + [rhs])
        case (_, .or(let right)): return .or([lhs] + right)
        default: return .or([lhs, rhs])
        }
    }

    /// The negation.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate { .not(predicate) }

    /// `ANY key op value`: some object across the to-many key path satisfies the comparison.
    public static func any(
        _ key: Key, _ op: Operator, _ value: some ValueConvertible, _ options: StringOptions = []
    ) -> FetchPredicate {
        key.compared(op, .value(value.databaseValue), options, quantifier: .any)
    }

    /// `ALL key op value`: every object across the to-many key path satisfies the comparison.
    public static func all(
        _ key: Key, _ op: Operator, _ value: some ValueConvertible, _ options: StringOptions = []
    ) -> FetchPredicate {
        key.compared(op, .value(value.databaseValue), options, quantifier: .all)
    }

    /// `NONE key op value`: no object across the to-many key path satisfies the comparison.
    public static func none(
        _ key: Key, _ op: Operator, _ value: some ValueConvertible, _ options: StringOptions = []
    ) -> FetchPredicate {
        key.compared(op, .value(value.databaseValue), options, quantifier: .none)
    }
}

extension FetchPredicate.Key {
    /// The key path `path`, so `.key("title")` reads the same wherever a key is expected.
    public static func key(_ path: String) -> FetchPredicate.Key { FetchPredicate.Key(path) }

    /// The number of objects across this to-many key path (`todos.@count`).
    public var count: FetchPredicate.Key {
        FetchPredicate.Key(components: components + ["@count"], offset: offset)
    }

    /// The key as an operand: `.count` when it ends in `@count`.
    var operand: FetchPredicate.Operand {
        if components.count > 1, components.last == "@count" {
            return .count(FetchPredicate.Key(components: components.dropLast(), offset: offset))
        }
        return .key(self)
    }

    func compared(
        _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand, _ options: FetchPredicate.StringOptions = [],
        quantifier: FetchPredicate.Quantifier = .one
    ) -> FetchPredicate {
        .comparison(FetchPredicate.Comparison(operand, op, rhs, options: options, quantifier: quantifier))
    }

    // MARK: Strings

    /// `key BEGINSWITH prefix`.
    public func beginsWith(_ prefix: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        compared(.beginsWith, .value(.text(prefix)), options)
    }

    /// `key ENDSWITH suffix`.
    public func endsWith(_ suffix: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        compared(.endsWith, .value(.text(suffix)), options)
    }

    /// `key CONTAINS text`.
    public func contains(_ text: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        compared(.contains, .value(.text(text)), options)
    }

    /// `key LIKE pattern`, where `*` matches any run of characters and `?` one character.
    public func like(_ pattern: String, _ options: FetchPredicate.StringOptions = []) -> FetchPredicate {
        compared(.like, .value(.text(pattern)), options)
    }

    // MARK: Lists and ranges

    /// `key IN {values…}`.
    public func `in`<C: Sequence>(_ values: C) -> FetchPredicate where C.Element: ValueConvertible {
        compared(.in, .list(values.map(\.databaseValue)))
    }

    /// `key BETWEEN {lower, upper}` (both ends included).
    public func between(_ lower: some ValueConvertible, _ upper: some ValueConvertible) -> FetchPredicate {
        compared(.between, .list([lower.databaseValue, upper.databaseValue]))
    }

    // MARK: Comparisons with a value (literals, `nil` and `Value`s)

    public static func == (lhs: Self, rhs: Value) -> FetchPredicate { lhs.compared(.equal, .value(rhs)) }
    public static func != (lhs: Self, rhs: Value) -> FetchPredicate { lhs.compared(.notEqual, .value(rhs)) }
    public static func < (lhs: Self, rhs: Value) -> FetchPredicate { lhs.compared(.lessThan, .value(rhs)) }
    public static func <= (lhs: Self, rhs: Value) -> FetchPredicate { lhs.compared(.lessThanOrEqual, .value(rhs)) }
    public static func > (lhs: Self, rhs: Value) -> FetchPredicate { lhs.compared(.greaterThan, .value(rhs)) }
    public static func >= (lhs: Self, rhs: Value) -> FetchPredicate {
        lhs.compared(.greaterThanOrEqual, .value(rhs))
    }

    // MARK: Comparisons with a Swift value (`Int`, `Date`, `UUID`, optionals…)

    public static func == (lhs: Self, rhs: some ValueConvertible) -> FetchPredicate { lhs == rhs.databaseValue }
    public static func != (lhs: Self, rhs: some ValueConvertible) -> FetchPredicate { lhs != rhs.databaseValue }
    public static func < (lhs: Self, rhs: some ValueConvertible) -> FetchPredicate { lhs < rhs.databaseValue }
    public static func <= (lhs: Self, rhs: some ValueConvertible) -> FetchPredicate { lhs <= rhs.databaseValue }
    public static func > (lhs: Self, rhs: some ValueConvertible) -> FetchPredicate { lhs > rhs.databaseValue }
    public static func >= (lhs: Self, rhs: some ValueConvertible) -> FetchPredicate { lhs >= rhs.databaseValue }

    // MARK: Comparisons with another operand: `.key("a") < .key("b")`, `.key("a") == .count("todos")`

    public static func == (lhs: Self, rhs: FetchPredicate.Operand) -> FetchPredicate { lhs.compared(.equal, rhs) }
    public static func != (lhs: Self, rhs: FetchPredicate.Operand) -> FetchPredicate { lhs.compared(.notEqual, rhs) }
    public static func < (lhs: Self, rhs: FetchPredicate.Operand) -> FetchPredicate { lhs.compared(.lessThan, rhs) }
    public static func <= (lhs: Self, rhs: FetchPredicate.Operand) -> FetchPredicate {
        lhs.compared(.lessThanOrEqual, rhs)
    }
    public static func > (lhs: Self, rhs: FetchPredicate.Operand) -> FetchPredicate {
        lhs.compared(.greaterThan, rhs)
    }
    public static func >= (lhs: Self, rhs: FetchPredicate.Operand) -> FetchPredicate {
        lhs.compared(.greaterThanOrEqual, rhs)
    }
}
