extension FetchPredicate {
    /// An arithmetic operator of an ``Operand/arithmetic(_:_:_:)`` expression.
    ///
    /// Integers stay integers under `+`, `-` and `*`; `/` always divides as floating point (as
    /// NSExpression does), and a division by zero is `NULL`, so a comparison with it is false.
    public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
        /// `+`
        case add = "+"
        /// `-` (and unary minus, written `0 - x`)
        case subtract = "-"
        /// `*`
        case multiply = "*"
        /// `/`, always floating point
        case divide = "/"

        /// How tightly the operator binds: `*` and `/` before `+` and `-`.
        var precedence: Int {
            switch self {
            case .add, .subtract: return 1
            case .multiply, .divide: return 2
            }
        }
    }

    /// A collection operator applied to a to-many key path: `@sum`, `@avg`, `@min`, `@max`.
    ///
    /// `NULL` values are skipped. Over no object at all, `@sum` is 0 and the others are `NULL` (so a
    /// comparison with them is false), as Core Data's SQLite store gives them.
    public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
        /// `@sum`: the total (0 over no object).
        case sum
        /// `@avg`: the mean, a double.
        case avg
        /// `@min`: the smallest value.
        case min
        /// `@max`: the largest value.
        case max
    }

    /// `SUBQUERY(collection, $variable, predicate)`: the objects across the to-many key path `collection`
    /// for which `predicate` holds, `$variable` standing for each in turn.
    ///
    /// ```swift
    /// // Categories with an open todo of priority above 2:
    /// let p = try FetchPredicate(format: "SUBQUERY(todos, $t, $t.done == NO AND $t.priority > 2).@count > 0")
    /// ```
    ///
    /// Inside `predicate`, key paths that start with `$variable` (`$t.priority`) read the related object;
    /// other key paths read the object being evaluated. Subqueries nest: the collection of an inner one may
    /// start with an outer variable (`SUBQUERY($t.tags, $g, $g.name == 'urgent')`).
    public struct Subquery: Sendable, Hashable {
        /// The to-many key path whose objects are selected (may start with an enclosing subquery's variable).
        public var collection: Key
        /// The variable's name, without `$`.
        public var variable: String
        /// The condition each object must meet.
        public var predicate: FetchPredicate

        /// Creates a subquery.
        public init(collection: Key, variable: String, predicate: FetchPredicate) {
            self.collection = collection
            self.variable = variable
            self.predicate = predicate
        }
    }
}

extension FetchPredicate.Key {
    /// The subquery variable a key path starts with (`t` for `$t.priority`), if it starts with one.
    public var variable: String? {
        guard let first = components.first, first.utf8.first == UInt8(ascii: "$") else { return nil }
        return String(first.dropFirst())
    }

    /// The key path without its leading variable: `priority` for `$t.priority`.
    public var droppingVariable: FetchPredicate.Key {
        FetchPredicate.Key(components: Array(components.dropFirst()), offset: offset)
    }
}
