extension AnyFetchRequest {
    /// The columns a fetch adds for ``relationshipKeyPathsForPrefetching``, in order: for each relationship, its
    /// destination's attributes (the primary key first), named by key path (`category.id`, `category.name`).
    ///
    /// A backend selects them after the sort and section columns (each through the relationship's join, so
    /// `NULL` where there is no related row), unless already selected.
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` for a name that is no relationship of the entity,
    ///   ``FetchKitError/Code/invalidPredicate`` for a to-many relationship.
    public func prefetchedKeyPaths(in schema: Schema) throws -> [String] {
        try prefetchedKeyPaths(of: schema.entity(named: entityName), in: schema)
    }

    /// ``prefetchedKeyPaths(in:)`` of the request's `entity`.
    func prefetchedKeyPaths(of entity: Entity, in schema: Schema) throws -> [String] {
        var keyPaths: [String] = []
        for name in relationshipKeyPathsForPrefetching {
            guard let relationship = entity.relationship(named: name) else {
                throw FetchKitError.unknownKey(name, entity: entity.name, offset: nil)
            }
            guard relationship.isToOne else {
                throw FetchKitError.invalidPredicate(
                    "relationship to prefetch \(SafeText.quoted(name)) is to-many: only to-one relationships "
                        + "are prefetched", offset: nil)
            }
            let destination = try schema.entity(named: relationship.destination)
            for attribute in destination.attributes { keyPaths.append(name + "." + attribute.name) }
        }
        return keyPaths
    }
}
