/// A kind of object stored in one table: its primary key, attributes and relationships.
///
/// ```swift
/// let todo = Entity("Todo", table: "todo", primaryKey: .integer("id"), attributes: [
///     Attribute("title", .text),
///     Attribute("done", .bool, default: false),
///     Attribute("categoryID", .integer, optional: true, column: "category_id"),
/// ], relationships: [
///     .toOne("category", to: "Category", foreignKey: "categoryID"),
/// ])
/// ```
public struct Entity: Sendable, Hashable {
    /// The entity's name, as used by fetch requests and records.
    public var name: String
    /// The table that stores it.
    public var table: String
    /// The primary key.
    public var primaryKey: PrimaryKey
    /// Every attribute, the primary key first.
    public private(set) var attributes: [Attribute]
    /// Relationships to other entities.
    public var relationships: [Relationship]

    /// Creates an entity. The primary key is added to `attributes` when not listed.
    public init(
        _ name: String, table: String? = nil, primaryKey: PrimaryKey = .integer(), attributes: [Attribute],
        relationships: [Relationship] = []
    ) {
        self.name = name
        self.table = table ?? name
        self.primaryKey = primaryKey
        var attributes = attributes
        if let index = attributes.firstIndex(where: { $0.name == primaryKey.name }) {
            var pk = attributes.remove(at: index)
            pk.isOptional = false
            attributes.insert(pk, at: 0)
        } else {
            attributes.insert(Attribute(primaryKey.name, primaryKey.type), at: 0)
        }
        self.attributes = attributes
        self.relationships = relationships
    }

    /// The attribute named `name`, if any.
    ///
    /// - Complexity: O(*n*) in the number of attributes.
    public func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// The relationship named `name`, if any.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
    }

    /// The primary key's attribute.
    public var primaryKeyAttribute: Attribute { attributes[0] }
}
