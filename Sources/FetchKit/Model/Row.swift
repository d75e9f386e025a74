/// An untyped row: attribute names mapped to values, in column order.
///
/// Rows fetched together share one column layout, so a row costs little more than its values.
///
/// ```swift
/// let row: Row = ["title": "Buy milk", "priority": 2]
/// row["title"]          // .text("Buy milk")
/// row["title", as: String.self]   // "Buy milk"
/// ```
public struct Row: Sendable, Hashable {
    /// The attribute names, in order.
    public var names: [String] { layout.names }
    /// The values, in the order of `names`.
    public private(set) var values: [Value]
    /// The row's column layout, shared with the rows fetched with it.
    @_spi(Backend) public let layout: RowLayout

    /// Creates a row from name/value pairs; a later duplicate name replaces an earlier one.
    public init(_ pairs: [(String, Value)]) {
        var names: [String] = []
        var values: [Value] = []
        var seen: [String: Int] = [:]
        for (name, value) in pairs {
            if let index = seen[name] {
                values[index] = value
            } else {
                seen[name] = names.count
                names.append(name)
                values.append(value)
            }
        }
        self.layout = RowLayout(names: names)
        self.values = values
    }

    /// Creates a row sharing `layout` with other rows (used by stores when fetching).
    @_spi(Backend) public init(layout: RowLayout, values: [Value]) {
        precondition(layout.names.count == values.count, "a row needs one value per column")
        self.layout = layout
        self.values = values
    }

    /// The value of `name`, or `nil` when the row has no such column.
    ///
    /// - Complexity: O(1).
    public subscript(name: String) -> Value? {
        get { layout.index(of: name).map { values[$0] } }
    }

    /// The value of `name` converted to `T`, or `nil` when absent or not convertible.
    public subscript<T: ValueConvertible>(name: String, as type: T.Type) -> T? {
        self[name].flatMap { T.fromDatabaseValue($0) }
    }

    /// Sets the value of an existing column, or appends a new one.
    public mutating func set(_ name: String, to value: Value) {
        if let index = layout.index(of: name) {
            values[index] = value
        } else {
            self = Row(zip(layout.names, values).map { ($0, $1) } + [(name, value)])
        }
    }

    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(values)
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }
}

extension Row: CustomStringConvertible {
    public var description: String {
        "[" + zip(names, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}
