extension Schema {
    /// The foreign-key attributes of `entity` whose values a change feed reports (``TableChange/references``):
    /// those of its to-one relationships that a to-many relationship of another entity names as its inverse.
    /// A change to such a row changes the to-many side of the row it pointed at before and after, and a
    /// controller reading that relationship (`ANY todos.priority > 3`) re-evaluates only those rows.
    ///
    /// - Complexity: O(r) in the schema's relationships.
    public func referencedForeignKeys(of entity: Entity) -> [Attribute] {
        var names: [String] = []
        for other in entities {
            for relationship in other.relationships where relationship.destination == entity.name {
                guard case .toMany(let inverse) = relationship.kind,
                    case .toOne(let foreignKey)? = entity.relationship(named: inverse)?.kind,
                    !names.contains(foreignKey)
                else { continue }
                names.append(foreignKey)
            }
        }
        return names.compactMap(entity.attribute(named:))
    }
}
