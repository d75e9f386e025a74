/// A relationship from one entity to another.
///
/// A to-one relationship is stored as a foreign-key attribute of the source entity;
/// a to-many relationship is the inverse of a to-one relationship on the destination.
///
/// ```swift
/// // On Todo:     .toOne("category", to: "Category", foreignKey: "categoryID")
/// // On Category: .toMany("todos", to: "Todo", inverse: "category")
/// ```
public struct Relationship: Sendable, Hashable {
    /// Whether the relationship yields one object or many.
    public enum Kind: Sendable, Hashable {
        /// Stored in `foreignKey`, an attribute of the source entity that holds the destination's primary key.
        case toOne(foreignKey: String)
        /// The inverse of the destination's to-one relationship named `inverse`.
        case toMany(inverse: String)
    }

    /// The relationship's name, usable in key paths (`category.name`).
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// To-one or to-many.
    public var kind: Kind

    /// A to-one relationship stored in the foreign-key attribute `foreignKey`.
    public static func toOne(_ name: String, to destination: String, foreignKey: String) -> Relationship {
        Relationship(name: name, destination: destination, kind: .toOne(foreignKey: foreignKey))
    }

    /// A to-many relationship, the inverse of `inverse` on `destination`.
    public static func toMany(_ name: String, to destination: String, inverse: String) -> Relationship {
        Relationship(name: name, destination: destination, kind: .toMany(inverse: inverse))
    }

    /// `true` for a to-one relationship.
    public var isToOne: Bool {
        if case .toOne = kind { return true }
        return false
    }
}
