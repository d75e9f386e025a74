/// A typed record: a `Codable` struct stored as one row of its entity's table.
///
/// Stored properties map to attributes by name; rename one with `CodingKeys`
/// (the coding key's string is the attribute name).
///
/// ```swift
/// struct Todo: Record {
///     static let entity = Entity("Todo", table: "todo", attributes: [
///         Attribute("title", .text), Attribute("done", .bool, default: false),
///     ])
///     var id: Int64?
///     var title: String
///     var done = false
/// }
/// ```
///
/// An integer primary key may be optional in the record: inserting a record whose key is `nil`
/// lets the store assign one.
///
/// ## Codable or RowDecodable
///
/// A record decodes through its `Decodable` conformance: nothing to write, and a fetch still reads each
/// property straight from its column, finding the columns once per fetch. `Codable`'s own machinery (a
/// keyed container and a type-erased call per property) makes that about twice as slow as a hand-written
/// SQLite loop filling the same structs. Where fetch time matters (many rows, small records), also
/// conform to ``RowDecodable`` and write `init(row:)`: the same reads by attribute name without that
/// machinery, about 1.2 times the hand-written loop. Every decoder then uses `init(row:)`; a record
/// still encodes through `Encodable`.
public protocol Record: Codable, Sendable {
    /// The entity this type stores.
    static var entity: Entity { get }

    /// The attribute that stores the property `name` (used to translate `#Predicate` key paths).
    ///
    /// The default returns `name`. A record whose `CodingKeys` rename a property returns the
    /// coding key's string here too:
    ///
    /// ```swift
    /// static func attributeName(forProperty name: String) -> String {
    ///     name == "isDone" ? "done" : name
    /// }
    /// ```
    static func attributeName(forProperty name: String) -> String
}

extension Record {
    /// Properties are stored in attributes of the same name.
    public static func attributeName(forProperty name: String) -> String { name }
}
