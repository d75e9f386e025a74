/// A stored column of an entity.
///
/// ```swift
/// Attribute("title", .text)
/// Attribute("priority", .integer, default: 0)
/// Attribute("notes", .text, optional: true)
/// ```
public struct Attribute: Sendable, Hashable {
    /// The attribute's name in predicates, sort descriptors and rows.
    public var name: String
    /// The column that stores it (defaults to `name`).
    public var column: String
    /// The attribute's type.
    public var type: AttributeType
    /// Whether the attribute may be `NULL`.
    public var isOptional: Bool
    /// The value used when an insert does not give one.
    public var defaultValue: Value?
    /// Whether the store creates an index on the column (sort and filter attributes).
    public var isIndexed: Bool

    /// Creates an attribute.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value? = nil,
        column: String? = nil, indexed: Bool = false
    ) {
        self.name = name
        self.column = column ?? name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.isIndexed = indexed
    }
}
