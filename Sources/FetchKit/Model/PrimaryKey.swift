/// The primary key of an entity: an integer (auto-assigned when omitted) or a text.
public struct PrimaryKey: Sendable, Hashable {
    /// The key's attribute name (and column).
    public var name: String
    /// `.integer` or `.text`.
    public var type: AttributeType

    /// An integer primary key; the store assigns one when an insert leaves it out.
    public static func integer(_ name: String = "id") -> PrimaryKey { PrimaryKey(name: name, type: .integer) }
    /// A text primary key; inserts must supply it.
    public static func text(_ name: String = "id") -> PrimaryKey { PrimaryKey(name: name, type: .text) }
}
