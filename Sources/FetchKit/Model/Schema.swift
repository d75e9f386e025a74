/// The entities an app stores, validated as a whole.
///
/// ```swift
/// let schema = try Schema([category, todo])
/// ```
public struct Schema: Sendable, Hashable {
    /// Every entity, in declaration order.
    public let entities: [Entity]
    private let byName: [String: Int]

    /// Creates a schema and checks that it is consistent: unique names, relationships that
    /// point at existing entities, foreign keys that are attributes of the primary key's type,
    /// to-many inverses that name a to-one relationship back.
    ///
    /// - Throws: ``FetchKitError/Code/invalidSchema`` naming the first problem found.
    public init(_ entities: [Entity]) throws {
        var byName: [String: Int] = [:]
        var tables: Set<String> = []
        for (index, entity) in entities.enumerated() {
            guard byName[entity.name] == nil else {
                throw FetchKitError.invalidSchema("entity \(SafeText.quoted(entity.name)) is declared twice")
            }
            guard tables.insert(entity.table).inserted else {
                throw FetchKitError.invalidSchema("table \(SafeText.quoted(entity.table)) is used by two entities")
            }
            byName[entity.name] = index
        }
        self.entities = entities
        self.byName = byName
        for entity in entities { try validate(entity) }
    }

    /// The entity named `name`.
    ///
    /// - Throws: ``FetchKitError/Code/unknownEntity``.
    public func entity(named name: String) throws -> Entity {
        guard let index = byName[name] else { throw FetchKitError.unknownEntity(name) }
        return entities[index]
    }

    /// The entity stored in `table`, if any.
    public func entity(forTable table: String) -> Entity? {
        entities.first { $0.table == table }
    }

    private func validate(_ entity: Entity) throws {
        var names: Set<String> = []
        var columns: Set<String> = []
        for attribute in entity.attributes {
            guard names.insert(attribute.name).inserted else {
                throw FetchKitError.invalidSchema("\(entity.name).\(attribute.name) is declared twice")
            }
            guard columns.insert(attribute.column).inserted else {
                throw FetchKitError.invalidSchema(
                    "column \(SafeText.quoted(attribute.column)) of \(entity.name) is used twice")
            }
            if let value = attribute.defaultValue, !attribute.type.accepts(value) {
                throw FetchKitError.invalidSchema(
                    "default of \(entity.name).\(attribute.name) is \(value), not \(attribute.type)")
            }
        }
        guard entity.primaryKey.type == .integer || entity.primaryKey.type == .text else {
            throw FetchKitError.invalidSchema("primary key of \(entity.name) must be integer or text")
        }
        for relationship in entity.relationships {
            guard names.insert(relationship.name).inserted else {
                throw FetchKitError.invalidSchema("\(entity.name).\(relationship.name) is declared twice")
            }
            guard let destination = byName[relationship.destination].map({ entities[$0] }) else {
                throw FetchKitError.invalidSchema(
                    "relationship \(entity.name).\(relationship.name) points at unknown entity "
                        + "\(SafeText.quoted(relationship.destination))"
                )
            }
            switch relationship.kind {
            case .toOne(let foreignKey):
                guard let fk = entity.attribute(named: foreignKey) else {
                    throw FetchKitError.invalidSchema(
                        "foreign key \(SafeText.quoted(foreignKey)) of \(entity.name).\(relationship.name) is "
                            + "not an attribute"
                    )
                }
                guard fk.type == destination.primaryKey.type else {
                    throw FetchKitError.invalidSchema(
                        "foreign key \(entity.name).\(foreignKey) is \(fk.type), \(destination.name)'s key is "
                            + "\(destination.primaryKey.type)"
                    )
                }
            case .toMany(let inverse):
                guard let back = destination.relationship(named: inverse), back.isToOne,
                    back.destination == entity.name
                else {
                    throw FetchKitError.invalidSchema(
                        "inverse \(SafeText.quoted(inverse)) of \(entity.name).\(relationship.name) is not a "
                            + "to-one relationship of "
                            + "\(destination.name) back to \(entity.name)"
                    )
                }
            }
        }
    }
}
