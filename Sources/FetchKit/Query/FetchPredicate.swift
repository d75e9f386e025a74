/// A predicate over one entity's objects: the single AST behind format strings,
/// Foundation's `#Predicate` and the Swift builder.
///
/// Three ways in, one meaning:
///
/// ```swift
/// let a = try FetchPredicate(format: "done == NO AND category.name BEGINSWITH[c] %@", "work")
/// let b = try FetchPredicate(#Predicate<Todo> { !$0.done && $0.priority > 2 })
/// let c: FetchPredicate = .key("done") == false && .key("priority") > 2
/// ```
///
/// A predicate is checked against a schema when it is compiled to SQL: unknown keys and
/// values of the wrong type are reported with the offset in the format string they came from.
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// All of the predicates (`AND`, `&&`). An empty list is true.
    case and([FetchPredicate])
    /// Any of the predicates (`OR`, `||`). An empty list is false.
    case or([FetchPredicate])
    /// The negation (`NOT`, `!`).
    case not(FetchPredicate)
    /// A comparison of two operands.
    case comparison(Comparison)

    /// The predicate that every object satisfies.
    public static let `true` = FetchPredicate.constant(true)
    /// The predicate that no object satisfies.
    public static let `false` = FetchPredicate.constant(false)
}

extension FetchPredicate {
    /// A comparison: `lhs op rhs`, with string options and a quantifier for to-many key paths.
    public struct Comparison: Sendable, Hashable {
        /// The left operand.
        public var lhs: Operand
        /// The operator.
        public var op: Operator
        /// The right operand (for `BETWEEN`, a two-element `.list`).
        public var rhs: Operand
        /// `[c]`, `[d]`, `[cd]`.
        public var options: StringOptions
        /// `ANY`, `ALL`, `NONE` or `SOME` before a key path that crosses a to-many relationship.
        public var quantifier: Quantifier

        /// Creates a comparison.
        public init(
            _ lhs: Operand, _ op: Operator, _ rhs: Operand, options: StringOptions = [],
            quantifier: Quantifier = .one
        ) {
            self.lhs = lhs
            self.op = op
            self.rhs = rhs
            self.options = options
            self.quantifier = quantifier
        }
    }

    /// A comparison operator.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
        /// Membership in a list (`IN {1, 2}` or `IN %@` with an array).
        case `in` = "IN"
        /// Inclusive range: the right operand is a two-element list.
        case between = "BETWEEN"
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        case contains = "CONTAINS"
        /// Pattern match with `*` (any run) and `?` (one character) wildcards.
        case like = "LIKE"
        /// Regular expression match. No backend supports it identically; compiling it throws.
        case matches = "MATCHES"
    }

    /// String comparison options: `[c]` case-insensitive, `[d]` diacritic-insensitive.
    public struct StringOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `[c]`
        public static let caseInsensitive = StringOptions(rawValue: 1)
        /// `[d]`
        public static let diacriticInsensitive = StringOptions(rawValue: 2)
    }

    /// How a comparison whose key path crosses a to-many relationship is quantified.
    public enum Quantifier: Sendable, Hashable {
        /// No quantifier: the key path must not cross a to-many relationship (except for `@count`).
        case one
        /// `ANY` / `SOME`: at least one related object satisfies the comparison.
        case any
        /// `ALL`: every related object satisfies it (true when there is none).
        case all
        /// `NONE`: no related object satisfies it.
        case none
    }

    /// One side of a comparison.
    public indirect enum Operand: Sendable, Hashable {
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

        /// Two operands are equal when their meanings are: a variable's offset, like a key's, is ignored.
        public static func == (lhs: Operand, rhs: Operand) -> Bool {
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

    /// A key path: attribute or relationship names separated by dots, with the place it came from.
    ///
    /// Two keys are equal when their components are; the offset is only for error messages.
    public struct Key: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The names, in order: `["category", "name"]`.
        public var components: [String]
        /// Where the key path starts in the format string (UTF-8 offset), if it came from one.
        public var offset: Int?

        /// Creates a key path from its dotted form.
        public init(_ path: String, offset: Int? = nil) {
            self.components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            self.offset = offset
        }

        /// Creates a key path from its components.
        public init(components: [String], offset: Int? = nil) {
            self.components = components
            self.offset = offset
        }

        public init(stringLiteral value: String) { self.init(value) }

        /// The dotted form: `category.name`.
        public var description: String { components.joined(separator: ".") }

        public static func == (lhs: Key, rhs: Key) -> Bool { lhs.components == rhs.components }
        public func hash(into hasher: inout Hasher) { hasher.combine(components) }
    }
}
