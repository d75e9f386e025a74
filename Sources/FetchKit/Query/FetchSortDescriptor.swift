/// One sort key of a fetch request: a key path (which may cross to-one relationships),
/// a direction, and whether text compares case-insensitively.
///
/// ```swift
/// [.ascending("category.name"), .descending("priority"), .ascending("title", caseInsensitive: true)]
/// ```
///
/// Every backend orders text by code point (binary / `"C"` collation) and puts `NULL`s first
/// when ascending, last when descending. The primary key always ends the order, so results
/// have one total, stable order.
public struct FetchSortDescriptor: Sendable, Hashable {
    /// The key path, dotted: `category.name`.
    public var key: String
    /// `true` for ascending.
    public var ascending: Bool
    /// Compare text case-insensitively.
    public var caseInsensitive: Bool

    /// Creates a sort descriptor.
    public init(_ key: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.key = key
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }

    /// An ascending sort on `key`.
    public static func ascending(_ key: String, caseInsensitive: Bool = false) -> FetchSortDescriptor {
        FetchSortDescriptor(key, ascending: true, caseInsensitive: caseInsensitive)
    }

    /// A descending sort on `key`.
    public static func descending(_ key: String, caseInsensitive: Bool = false) -> FetchSortDescriptor {
        FetchSortDescriptor(key, ascending: false, caseInsensitive: caseInsensitive)
    }
}
