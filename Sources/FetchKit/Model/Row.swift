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
    /// The block of values this row's values are in, shared with the rows fetched with it (immutable once
    /// built, so safe to share: see ``RowValues``).
    nonisolated(unsafe) let storage: RowValues
    /// Where this row's values start in ``storage``.
    let start: Int

    /// The attribute names, in order.
    public var names: [String] { layout.names }

    /// The values, in the order of `names`.
    ///
    /// - Complexity: O(*columns*): the values are copied into a new array. Read one value with
    ///   ``value(at:)`` or ``subscript(_:)``.
    public var values: [Value] { withValues { Array($0) } }

    /// The row's column layout, shared with the rows fetched with it.
    public var layout: RowLayout { storage.header.layout }

    /// The number of columns.
    var count: Int { storage.header.width }

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
        self.init(layout: RowLayout(names: names), values: values)
    }

    /// Creates a row sharing `layout` with other rows (used by stores when fetching; a fetch of many rows
    /// builds them with a ``RowBuilder``, which stores their values together).
    @_spi(Backend) public init(layout: RowLayout, values: [Value]) {
        precondition(layout.names.count == values.count, "a row needs one value per column")
        self.init(storage: RowValues.make(layout: layout, values: values), start: 0)
    }

    /// The row whose values start at `start` in `storage`.
    init(storage: RowValues, start: Int) {
        self.storage = storage
        self.start = start
    }

    /// The value of column `index`, in the order of `names` (`0..<names.count`).
    ///
    /// - Complexity: O(1).
    @inline(__always)
    public func value(at index: Int) -> Value {
        storage.withUnsafeMutablePointers { header, elements in
            precondition(
                index >= 0 && index < header.pointee.width, "column \(index) of a row of \(header.pointee.width)")
            return elements[start + index]
        }
    }

    /// Calls `body` with the row's values, in the order of `names`, without copying them.
    func withValues<R>(_ body: (UnsafeBufferPointer<Value>) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeBufferPointer(start: elements + start, count: header.pointee.width))
        }
    }

    /// The value of `name`, or `nil` when the row has no such column.
    ///
    /// - Complexity: O(1).
    public subscript(name: String) -> Value? {
        get { layout.index(of: name).map { value(at: $0) } }
    }

    /// The value of `name` converted to `T`, or `nil` when absent or not convertible.
    public subscript<T: ValueConvertible>(name: String, as type: T.Type) -> T? {
        self[name].flatMap { T.fromDatabaseValue($0) }
    }

    /// Sets the value of an existing column, or appends a new one.
    ///
    /// - Complexity: O(*columns*): the row gets values of its own.
    public mutating func set(_ name: String, to value: Value) {
        var values = self.values
        if let index = layout.index(of: name) {
            values[index] = value
            self = Row(layout: layout, values: values)
        } else {
            self = Row(zip(layout.names, values).map { ($0, $1) } + [(name, value)])
        }
    }

    /// Whether both rows hold equal values, column by column (their names are not compared).
    ///
    /// - Complexity: O(*columns*).
    func hasSameValues(as other: Row) -> Bool {
        if storage === other.storage, start == other.start { return true }
        return withValues { lhs in other.withValues { rhs in lhs.elementsEqual(rhs) } }
    }

    public static func == (lhs: Row, rhs: Row) -> Bool {
        (lhs.layout === rhs.layout || lhs.names == rhs.names) && lhs.hasSameValues(as: rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        withValues { values in
            hasher.combine(values.count)
            for value in values { hasher.combine(value) }
        }
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
