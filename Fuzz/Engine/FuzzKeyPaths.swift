import FetchKit

/// The key paths of a schema's entities that the grammar writes: every attribute, to-one and to-many
/// relationships two hops deep, and the attribute each ends at.
struct FuzzKeyPaths: Sendable {
    /// One key path from an entity.
    struct Path: Sendable {
        /// The dotted names: `category.name`.
        var components: [String]
        /// The attribute type it ends at; `nil` when it ends at a relationship.
        var type: AttributeType?
        /// Whether it crosses a to-many relationship (it needs a quantifier, or `@count`).
        var crossesToMany: Bool
        /// Whether it ends at a to-many relationship (`todos`, for `todos.@count`).
        var endsToMany: Bool
    }

    /// The paths of each entity, by entity name, in schema order.
    let entities: [(name: String, paths: [Path])]

    init(schema: Schema, depth: Int = 2) {
        entities = schema.entities.map { entity in
            var paths: [Path] = []
            Self.collect(entity, in: schema, prefix: [], toMany: false, depth: depth, into: &paths)
            return (entity.name, paths)
        }
    }

    private static func collect(
        _ entity: Entity, in schema: Schema, prefix: [String], toMany: Bool, depth: Int, into paths: inout [Path]
    ) {
        for attribute in entity.attributes {
            paths.append(
                Path(
                    components: prefix + [attribute.name], type: attribute.type, crossesToMany: toMany,
                    endsToMany: false))
        }
        guard depth > 0 else { return }
        for relationship in entity.relationships {
            let components = prefix + [relationship.name]
            let many = !relationship.isToOne
            paths.append(Path(components: components, type: nil, crossesToMany: toMany || many, endsToMany: many))
            guard let destination = try? schema.entity(named: relationship.destination) else { continue }
            collect(
                destination, in: schema, prefix: components, toMany: toMany || many, depth: depth - 1,
                into: &paths)
        }
    }
}
