extension FetchPredicate {
    /// One side of a comparison: build it with the static functions (``key(_:)``, ``value(_:)``…).
    public struct Operand: Sendable, Hashable {
        /// This operand's syntax tree, for backends: it may gain cases in any release.
        @_spi(Backend) public let node: Node

        /// The operand whose syntax tree is `node`.
        @_spi(Backend) public init(_ node: Node) { self.node = node }

        /// The syntax tree, for backends: it may gain cases in any release.
        ///
        /// A backend reads it through `@_spi(Backend) import FetchKit`; apps build operands with the static
        /// functions of the same names instead, which stay source-compatible when a case is added.
        @_spi(Backend) public indirect enum Node: Sendable, Hashable {
            /// A key path such as `title` or `category.name`.
            case key(Key)
            /// A constant.
            case value(Value)
            /// A list of constants (`{1, 2, 3}` or an array argument).
            case list([Value])
            /// The number of objects across a to-many key path (`todos.@count`).
            case count(Key)
            /// An unresolved `$VARIABLE`; see ``FetchPredicate/substituting(_:)``.
            case variable(String, offset: Int?)
            /// `SELF`: the evaluated object, compared through its primary key.
            case object
            /// A list literal with key paths, variables or expressions among its elements (`{lo, hi}`,
            /// `{$LOWER, $UPPER}`); it becomes a ``list(_:)`` once every element is a constant.
            case elements([Operand])
            /// `lhs + rhs`, `lhs - rhs`, `lhs * rhs` or `lhs / rhs` over numbers; unary minus is `0 - x`.
            case arithmetic(Operand, ArithmeticOperator, Operand)
            /// `@sum`, `@avg`, `@min` or `@max` of `value`, read on every object across the to-many key path
            /// `collection`: `todos.@sum.estimate` is `.aggregate(.sum, collection: "todos", value: "estimate")`.
            case aggregate(AggregateFunction, collection: Key, value: Key)
            /// The number of objects a ``Subquery`` selects: `SUBQUERY(todos, $t, $t.done == NO).@count`.
            case subquery(Subquery)
        }
    }
}

extension FetchPredicate.Operand.Node {
    /// Two operands are equal when their meanings are: a variable's offset, like a key's, is ignored.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.key(let a), .key(let b)), (.count(let a), .count(let b)): return a == b
        case (.value(let a), .value(let b)): return a == b
        case (.list(let a), .list(let b)): return a == b
        case (.variable(let a, _), .variable(let b, _)): return a == b
        case (.object, .object): return true
        case (.elements(let a), .elements(let b)): return a == b
        case (.arithmetic(let a, let x, let b), .arithmetic(let c, let y, let d)): return x == y && a == c && b == d
        case (.aggregate(let f, let a, let b), .aggregate(let g, let c, let d)): return f == g && a == c && b == d
        case (.subquery(let a), .subquery(let b)): return a == b
        default: return false
        }
    }

    /// Hashes what ``==(_:_:)`` compares: a variable's offset is left out.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .key(let key):
            hasher.combine(0)
            hasher.combine(key)
        case .value(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .list(let values):
            hasher.combine(2)
            hasher.combine(values)
        case .count(let key):
            hasher.combine(3)
            hasher.combine(key)
        case .variable(let name, _):
            hasher.combine(4)
            hasher.combine(name)
        case .object: hasher.combine(5)
        case .elements(let operands):
            hasher.combine(6)
            hasher.combine(operands)
        case .arithmetic(let lhs, let op, let rhs):
            hasher.combine(7)
            hasher.combine(lhs)
            hasher.combine(op)
            hasher.combine(rhs)
        case .aggregate(let function, let collection, let value):
            hasher.combine(8)
            hasher.combine(function)
            hasher.combine(collection)
            hasher.combine(value)
        case .subquery(let subquery):
            hasher.combine(9)
            hasher.combine(subquery)
        }
    }
}
