/// A key path resolved against a schema: the relationships it crosses and the column it ends at.
///
/// ```swift
/// let path = try schema.resolve("category.name", from: Fixtures.todo)
/// path.hops.count          // 1 (category)
/// path.attribute.name      // "name", of Category
/// ```
///
/// A path that ends at a to-one relationship (`category`) ends at its foreign-key attribute, so
/// `category == 3` compares the stored key; one that ends at a to-many relationship (`todos`) ends
/// at the destination's primary key.
@_spi(Backend) public struct ResolvedKeyPath: Sendable, Hashable {
    /// One relationship crossed by a key path.
    public struct Hop: Sendable, Hashable {
        /// The relationship crossed.
        public var relationship: Relationship
        /// The entity the relationship belongs to.
        public var source: Entity
        /// The entity it leads to.
        public var destination: Entity
        /// The foreign key joining them: an attribute of `source` for a to-one relationship,
        /// of `destination` for a to-many one.
        public var foreignKey: Attribute

        /// `true` when the relationship is to-one.
        public var isToOne: Bool { relationship.isToOne }
    }

    /// The key path as written.
    public var keyPath: FetchPredicate.Key
    /// The relationships crossed, in order; a trailing to-one relationship is not crossed (its foreign key
    /// is read on the source), a trailing to-many one is.
    public var hops: [Hop]
    /// The entity that owns ``attribute``.
    public var entity: Entity
    /// The attribute (column) the path ends at.
    public var attribute: Attribute
    /// The relationship the path names last, when it ends at a relationship rather than an attribute.
    public var endingRelationship: Relationship?

    /// The position in ``hops`` of the first to-many relationship, if the path crosses one.
    public var firstToManyHop: Int? { hops.firstIndex { !$0.isToOne } }

    /// Whether the path crosses a to-many relationship.
    public var crossesToMany: Bool { firstToManyHop != nil }

    /// Whether the value may be `NULL`: the attribute is optional or a relationship is crossed
    /// (a missing related object reads as `NULL`).
    public var isNullable: Bool { attribute.isOptional || !hops.isEmpty }
}

extension Schema {
    /// Resolves a dotted key path starting at `entity`, crossing relationships by name.
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` naming the first component that is
    ///   neither an attribute nor a relationship of the entity reached so far (and that entity);
    ///   ``FetchKitError/Code/invalidPredicate`` when a path continues past an attribute.
    /// - Complexity: O(*k* · *n*) for *k* components and *n* attributes per entity.
    @_spi(Backend) public func resolve(_ keyPath: FetchPredicate.Key, from entity: Entity) throws -> ResolvedKeyPath {
        var current = entity
        var hops: [ResolvedKeyPath.Hop] = []
        let components = keyPath.components
        guard !components.isEmpty else {
            throw FetchKitError.unknownKey("", entity: entity.name, offset: keyPath.offset)
        }
        for (index, name) in components.enumerated() {
            let isLast = index == components.count - 1
            if let attribute = current.attribute(named: name) {
                guard isLast else {
                    throw FetchKitError.invalidPredicate(
                        "key path \(SafeText.quoted(keyPath)) continues past the attribute "
                            + "\(SafeText.quoted(name)) of \(current.name)",
                        offset: keyPath.offset)
                }
                return ResolvedKeyPath(
                    keyPath: keyPath, hops: hops, entity: current, attribute: attribute, endingRelationship: nil)
            }
            guard let relationship = current.relationship(named: name) else {
                throw FetchKitError.unknownKey(name, entity: current.name, offset: keyPath.offset)
            }
            let destination = try self.entity(named: relationship.destination)
            switch relationship.kind {
            case .toOne(let foreignKeyName):
                guard let foreignKey = current.attribute(named: foreignKeyName) else {
                    throw FetchKitError.invalidSchema(
                        "foreign key \(SafeText.quoted(foreignKeyName)) of \(current.name).\(name) is not an attribute")
                }
                if isLast {
                    return ResolvedKeyPath(
                        keyPath: keyPath, hops: hops, entity: current, attribute: foreignKey,
                        endingRelationship: relationship)
                }
                hops.append(
                    .init(
                        relationship: relationship, source: current, destination: destination,
                        foreignKey: foreignKey))
            case .toMany(let inverse):
                let foreignKey = try inverseForeignKey(of: relationship, inverse: inverse, on: destination)
                hops.append(
                    .init(
                        relationship: relationship, source: current, destination: destination,
                        foreignKey: foreignKey))
                if isLast {
                    return ResolvedKeyPath(
                        keyPath: keyPath, hops: hops, entity: destination,
                        attribute: destination.primaryKeyAttribute, endingRelationship: relationship)
                }
            }
            current = destination
        }
        // Unreachable: the loop returns at the last component.
        throw FetchKitError.unknownKey(keyPath.description, entity: entity.name, offset: keyPath.offset)
    }

    /// Resolves a dotted key path given as a string (sort descriptors, section key paths).
    @_spi(Backend) public func resolve(_ keyPath: String, from entity: Entity) throws -> ResolvedKeyPath {
        try resolve(FetchPredicate.Key(keyPath), from: entity)
    }

    private func inverseForeignKey(
        of relationship: Relationship, inverse: String, on destination: Entity
    ) throws -> Attribute {
        guard let back = destination.relationship(named: inverse), case .toOne(let name) = back.kind,
            let foreignKey = destination.attribute(named: name)
        else {
            throw FetchKitError.invalidSchema(
                "inverse \(SafeText.quoted(inverse)) of relationship \(SafeText.quoted(relationship.name)) is "
                    + "not a to-one relationship "
                    + "of \(destination.name)")
        }
        return foreignKey
    }
}
