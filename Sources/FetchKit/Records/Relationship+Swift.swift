/// Relationships to the entity of a record type (what `@Entity` writes).
///
/// The `Destination: EntityRecord` constraint is what reports a relationship to a type that is no
/// entity: "requires that 'Tag' conform to 'EntityRecord'". The destination is named through
/// ``EntityRecord/entityName``, which never builds its entity.
extension Relationship {
    /// A to-one relationship to `destination`'s entity, stored in the foreign-key attribute `foreignKey`.
    public static func toOne<Destination: EntityRecord>(
        _ name: String, to destination: Destination.Type, foreignKey: String
    ) -> Relationship {
        .toOne(name, to: Destination.entityName, foreignKey: foreignKey)
    }

    /// A to-many relationship to `destination`'s entity, the inverse of its to-one relationship `inverse`.
    public static func toMany<Destination: EntityRecord>(
        _ name: String, to destination: Destination.Type, inverse: String
    ) -> Relationship {
        .toMany(name, to: Destination.entityName, inverse: inverse)
    }
}
