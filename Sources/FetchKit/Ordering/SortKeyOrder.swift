import Foundation

/// How the rows of a result are ordered: the sort values (each with its direction and case folding)
/// and then the primary key, ascending, exactly as the `ORDER BY` FetchKit compiles for the request.
///
/// It makes the ``SortKey`` of a row, and compares rows directly by their values.
///
/// ```swift
/// let order = SortKeyOrder([.ascending("category.name"), .descending("due")], primaryKey: "id")
/// let key = order.key(row)                   // the row's SortKey
/// order.compare(row, other)                  // .orderedAscending when `row` comes first
/// ```
public struct SortKeyOrder: Sendable, Hashable {
    /// One sort value: its column, direction and case folding.
    public struct Component: Sendable, Hashable {
        /// The column (the sort descriptor's key path, as fetched rows name it).
        public var column: String
        /// `true` for ascending: NULLs first. Descending puts NULLs last.
        public var ascending: Bool
        /// Text compares by its case-folded form (`fetchKitCaseFolded`).
        public var caseInsensitive: Bool

        /// Creates a component.
        public init(column: String, ascending: Bool = true, caseInsensitive: Bool = false) {
            self.column = column
            self.ascending = ascending
            self.caseInsensitive = caseInsensitive
        }
    }

    /// The sort values, in order.
    public var components: [Component]
    /// The primary key's column: the last, ascending sort value.
    public var primaryKey: String

    /// Creates an order from sort descriptors; `primaryKey` ends it.
    public init(_ sortDescriptors: [FetchSortDescriptor], primaryKey: String) {
        self.components = sortDescriptors.map {
            Component(column: $0.key, ascending: $0.ascending, caseInsensitive: $0.caseInsensitive)
        }
        self.primaryKey = primaryKey
    }

    /// Creates an order from components; `primaryKey` ends it.
    public init(components: [Component], primaryKey: String) {
        self.components = components
        self.primaryKey = primaryKey
    }

    /// The order of `request`'s results in `schema`.
    ///
    /// - Throws: ``FetchKitError/Code/unknownEntity`` when the schema has no such entity.
    public init(_ request: AnyFetchRequest, in schema: Schema) throws {
        let entity = try schema.entity(named: request.entityName)
        self.init(request.sortDescriptors, primaryKey: entity.primaryKey.name)
    }

    /// The key of a row holding every sort column and the primary key; a missing column counts as NULL.
    ///
    /// - Complexity: O(*m*) for the total size *m* of the sort values.
    public func key(_ row: Row) -> SortKey {
        var encoder = SortKeyEncoder()
        return key(row, using: &encoder)
    }

    /// The key of sort values given in the order of ``components``, and a primary key.
    ///
    /// Missing trailing values count as NULL; extra values are ignored.
    ///
    /// - Complexity: O(*m*) for the total size *m* of the values.
    public func key(values: [Value], primaryKey: Value) -> SortKey {
        var encoder = SortKeyEncoder()
        for (index, component) in components.enumerated() {
            let value = index < values.count ? values[index] : .null
            encoder.append(value, ascending: component.ascending, caseInsensitive: component.caseInsensitive)
        }
        encoder.append(primaryKey, ascending: true, caseInsensitive: false)
        return encoder.key()
    }

    /// The key of `row`, encoding with `encoder`'s buffer (reuse one encoder to make many keys).
    ///
    /// The encoder remembers the column positions of the last row layout it saw, so keys of rows that share a
    /// layout (rows fetched together do) look up no column by name; use one encoder per order.
    func key(_ row: Row, using encoder: inout SortKeyEncoder) -> SortKey {
        if encoder.cachedLayout !== row.layout {
            encoder.cachedLayout = row.layout
            encoder.cachedColumns =
                components.map { row.layout.index(of: $0.column) }
                + [row.layout.index(of: primaryKey)]
        }
        encoder.reset()
        let columns = encoder.cachedColumns
        for (index, component) in components.enumerated() {
            encoder.append(
                columns[index].map { row.value(at: $0) } ?? .null, ascending: component.ascending,
                caseInsensitive: component.caseInsensitive)
        }
        let key = columns[components.count].map { row.value(at: $0) } ?? .null
        encoder.append(key, ascending: true, caseInsensitive: false)
        return encoder.key()
    }

    /// The primary key stored at the end of `key`, or `nil` when `key` was not made by this order.
    ///
    /// An integer key comes back as `.integer`, a text key as `.text`.
    ///
    /// - Complexity: O(*m*) for the length *m* of the key.
    public func primaryKey(of key: SortKey) -> Value? {
        var decoder = SortKeyDecoder(key.encodedBytes)
        for component in components {
            guard decoder.next(ascending: component.ascending) != nil else { return nil }
        }
        guard let value = decoder.next(ascending: true), decoder.offset == decoder.bytes.count else { return nil }
        return value
    }

    /// Compares two rows by their values, as the database orders them; a missing column counts as NULL.
    ///
    /// Slower than comparing their keys, and equivalent.
    ///
    /// - Complexity: O(*m*) for the total size *m* of the sort values.
    public func compare(_ lhs: Row, _ rhs: Row) -> ComparisonResult {
        for component in components {
            let order = Value.databaseOrder(
                lhs[component.column] ?? .null, rhs[component.column] ?? .null,
                caseInsensitive: component.caseInsensitive)
            if order != .orderedSame {
                if component.ascending { return order }
                return order == .orderedAscending ? .orderedDescending : .orderedAscending
            }
        }
        return Value.databaseOrder(lhs[primaryKey] ?? .null, rhs[primaryKey] ?? .null)
    }
}
