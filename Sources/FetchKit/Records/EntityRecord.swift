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

    /// The key a key path of this type stores: an attribute's name, or a to-one relationship's name and its
    /// destination's attribute (`\Todo.category?.name` is `category.name`); `nil` for anything else.
    ///
    /// The default answers single members through ``storedMember(for:)``; the macro also answers the
    /// attributes of to-one relationships.
    static func storedPath(for keyPath: AnyKeyPath) -> String?

    /// Each attribute's key path reached through an optional record of this type (`\Category?.?.name` for
    /// `name`): how a key path that crosses a to-one relationship to this type (`\Todo.category?.name`) is
    /// recognised. The default is empty (such key paths are then unknown).
    static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] { get }

    /// The record's values for its entity's attributes, in the entity's order (primary key first).
    ///
    /// A to-one relationship stores its related record's key in its foreign-key attribute.
    func attributeValues() -> [Value]

    /// The entity's name, without building the entity.
    ///
    /// Relationships name their destination through it, so two entities that refer to each other never
    /// build each other's ``Record/entity`` (which would recurse). The default is `entity.name`; the
    /// macro writes the name itself.
    static var entityName: String { get }

    /// The to-one relationships a request can prefetch (``FetchRequest/prefetching(_:)``), each with the
    /// property that holds its related record.
    ///
    /// The macro lists every to-one relationship; the default is none.
    static var toOneRelationships: [ToOneRelationship<Self>] { get }

    /// The entity's primary key, without building the entity: a foreign key to this entity takes its type.
    ///
    /// The default is `entity.primaryKey`; the macro writes the key itself.
    static var entityPrimaryKey: PrimaryKey { get }
}

extension EntityRecord {
    /// The entity's name: `entity.name`.
    public static var entityName: String { entity.name }

    /// The entity's primary key: `entity.primaryKey`.
    public static var entityPrimaryKey: PrimaryKey { entity.primaryKey }
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

extension EntityRecord {
    /// The key (`title`, `category.name`) a key path of this type stores: by default, its single member's name.
    public static func storedPath(for keyPath: AnyKeyPath) -> String? {
        storedMember(for: keyPath)?.name
    }

    /// No key path crosses to this type.
    public static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] { [] }

    /// The key (`category.name`) of `keyPath` when it reads an attribute of the record the to-one relationship
    /// `relationship` (named `name`) leads to; the macro's ``storedPath(for:)`` asks this for each to-one
    /// relationship.
    ///
    /// - Complexity: O(*n*) in the destination's attributes.
    public static func storedPath<Destination: EntityRecord>(
        for keyPath: AnyKeyPath, through relationship: KeyPath<Self, Destination?>, named name: String
    ) -> String? {
        let base: AnyKeyPath = relationship
        for (tail, attribute) in Destination.optionalChainKeyPaths where base.appending(path: tail) == keyPath {
            return name + "." + attribute
        }
        return nil
    }
}
