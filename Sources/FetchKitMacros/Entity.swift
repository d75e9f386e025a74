/// Declares a struct as a record of an entity: conforms it to ``EntityRecord`` with its entity, its key
/// paths, a positional `init(row:)`, its `attributeValues()` and its `Codable` implementation.
///
/// ```swift
/// @Entity(table: "todo")
/// struct Todo {
///     @PrimaryKey var id: Int64?
///     var title: String
///     var done = false
///     @Relationship(column: "category_id") var category: Category?
/// }
/// ```
///
/// - Parameters:
///   - name: The entity's name (defaults to the type's name).
///   - table: The table that stores it (defaults to the entity's name).
///
/// Every stored property is an attribute, in declaration order after the primary key: a type that is an
/// ``AttributeValue``, or a `RawRepresentable` type (an enum) whose raw value is one, and `Codable`.
/// Exactly one property is marked ``PrimaryKey(column:)``. Static and computed properties are ignored;
/// mark a stored property that is not stored with ``Transient()``.
@attached(
    extension, conformances: EntityRecord,
    names: named(entity), named(entityName), named(entityPrimaryKey), named(storedMember), named(storedPath),
    named(toOneRelationships),
    named(optionalChainKeyPaths), named(init),
    named(attributeValues), named(CodingKeys), named(encode))
public macro Entity(_ name: String? = nil, table: String? = nil) =
    #externalMacro(module: "FetchKitMacrosPlugin", type: "EntityMacro")

/// Marks the primary key of an ``Entity(_:table:)`` record (`Int64`, `Int`, `String` or `UUID`, optional
/// or not), stored in `column` (defaults to the property's name).
@attached(peer)
public macro PrimaryKey(column: String? = nil) =
    #externalMacro(module: "FetchKitMacrosPlugin", type: "MarkerMacro")

/// Stores a property of an ``Entity(_:table:)`` record in `column` (defaults to the property's name),
/// indexed when `indexed` is `true`.
@attached(peer)
public macro Attribute(column: String? = nil, indexed: Bool = false) =
    #externalMacro(module: "FetchKitMacrosPlugin", type: "MarkerMacro")

/// Keeps a property of an ``Entity(_:table:)`` record out of the database: it must have a default value,
/// which every fetched record gets.
@attached(peer)
public macro Transient() = #externalMacro(module: "FetchKitMacrosPlugin", type: "MarkerMacro")

/// A to-one relationship of an ``Entity(_:table:)`` record, `var category: Category?`, stored in a
/// foreign-key attribute named after the property (`categoryID`) in `column`.
///
/// The property becomes computed, backed by a ``ToOne`` named `_category` that keeps the related
/// record's key when the record is not loaded. The destination must be an ``EntityRecord``: `ToOne`'s
/// constraint reports one that is not.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro Relationship(column: String? = nil) =
    #externalMacro(module: "FetchKitMacrosPlugin", type: "RelationshipMacro")

/// A to-many relationship of an ``Entity(_:table:)`` record, `var todos: [Todo] = []`: the inverse of the
/// to-one relationship `inverse` of the destination (`\Todo.category`).
///
/// Fetches leave it empty and writes ignore it. The destination must be an ``EntityRecord``.
///
/// The property is backed by a private `_todos`, as the to-one form is by its storage: Swift 6.3 crashes
/// when only one overload of a macro adds accessors.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro Relationship(inverse: AnyKeyPath) =
    #externalMacro(module: "FetchKitMacrosPlugin", type: "RelationshipMacro")
