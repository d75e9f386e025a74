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
///
/// A predicate is a value: build it with the static functions (``and(_:)``, ``comparison(_:)``…), the `&&`,
/// `||` and `!` operators, a format string or `#Predicate`. Its syntax tree, ``Node``, is for backends.
public struct FetchPredicate: Sendable, Hashable {
    /// This predicate's syntax tree, for backends: it may gain cases in any release.
    @_spi(Backend) public let node: Node

    /// The predicate whose syntax tree is `node`.
    @_spi(Backend) public init(_ node: Node) { self.node = node }

    /// The syntax tree, for backends: it may gain cases in any release.
    ///
    /// A backend reads it through `@_spi(Backend) import FetchKit`; apps build predicates with the static
    /// functions of the same names instead, which stay source-compatible when a case is added.
    @_spi(Backend) public indirect enum Node: Sendable, Hashable {
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
    }
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
