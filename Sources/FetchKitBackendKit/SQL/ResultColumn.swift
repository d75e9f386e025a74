/// One column of a fetch's result: the name rows use for it and the type to read it as.
public struct ResultColumn: Sendable, Hashable {
    /// The attribute name (`title`) or dotted key path (`category.name`).
    public var name: String
    /// How to read the column's values.
    public var type: AttributeType

    /// Creates a result column.
    public init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }
}
