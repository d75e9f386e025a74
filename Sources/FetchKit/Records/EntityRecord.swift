/// A record declared once, with the `@Entity` macro of the `FetchKitMacros` product.
///
/// The macro writes the conformance: the ``Record/entity``, the map from the type's key paths to its
/// attributes and relationships, a positional `init(row:)` and the values a write stores.
///
/// ```swift
/// import FetchKitMacros
///
/// @Entity(table: "todo")
/// struct Todo {
///     @PrimaryKey var id: Int64?
///     var title: String
///     var done = false
///     @Relationship(column: "category_id") var category: Category?
/// }
/// ```
///
/// A type may also conform by hand; each requirement says what the macro writes for it.
public protocol EntityRecord: RowDecodable {
    /// The attribute or relationship a single-property key path of this type stores, or `nil`.
    ///
    /// The macro answers for every stored property: `\Todo.title` is the attribute `title`,
    /// `\Todo.category` the to-one relationship `category`.
    static func storedMember(for keyPath: AnyKeyPath) -> StoredMember?

    /// The record's values for its entity's attributes, in the entity's order (primary key first).
    ///
    /// A to-one relationship stores its related record's key in its foreign-key attribute.
    func attributeValues() -> [Value]
}

/// What a key path of an ``EntityRecord`` stores.
public enum StoredMember: Sendable {
    /// An attribute, by name.
    case attribute(String)
    /// A to-one relationship, by name, and the record type it leads to.
    case toOne(String, destination: any EntityRecord.Type)
    /// A to-many relationship, by name, and the record type of its elements.
    case toMany(String, destination: any EntityRecord.Type)

    /// The attribute's or relationship's name.
    public var name: String {
        switch self {
        case .attribute(let name), .toOne(let name, _), .toMany(let name, _): return name
        }
    }
}
