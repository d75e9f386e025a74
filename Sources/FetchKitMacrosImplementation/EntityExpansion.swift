/// The source of the extension `@Entity` writes: the conformance to `FetchKit.EntityRecord`.
///
/// Every name is qualified with `FetchKit.`, so the expansion compiles wherever FetchKit is imported.
/// Members are `nonisolated`, so records of modules isolated to the main actor by default conform too.
struct EntityExpansion {
    var typeName: String
    var entityName: String
    var table: String
    var properties: [StoredProperty]
    /// `public ` or `package ` or `""`.
    var access: String
    /// Whether the extension declares the conformance (not when the type already conforms).
    var conforms: Bool

    func source(extending type: String) -> String {
        let conformance = conforms ? ": \(Self.nonisolated)FetchKit.EntityRecord" : ""
        return """
            extension \(type)\(conformance) {
            \(entity)

            \(names)

            \(storedMember)

            \(storedPath)
            \(toOneRelationships)
            \(optionalChainKeyPaths)

            \(rowInitializer)

            \(attributeValues)

            \(codingKeys)

            \(decodingInitializer)

            \(encode)
            }
            """
    }

    /// `nonisolated ` where the compiler that runs the plugin (the one that compiles the expansion) has
    /// nonisolated conformances (Swift 6.2): in a module isolated to the main actor by default, the conformance
    /// would otherwise be isolated, and `Record` requires `Sendable`.
    private static var nonisolated: String {
        #if compiler(>=6.2)
            return "nonisolated "
        #else
            return ""
        #endif
    }

    /// The stored properties, primary key first: the entity's attribute order.
    private var ordered: [StoredProperty] {
        properties.filter(\.isPrimaryKey) + properties.filter { !$0.isPrimaryKey }
    }

    private var primaryKey: StoredProperty {
        properties.first(where: \.isPrimaryKey)!
    }

    /// The properties stored in attributes, in attribute order.
    private var attributeProperties: [StoredProperty] {
        ordered.filter {
            switch $0.kind {
            case .primaryKey, .attribute, .toOne: return true
            case .toMany, .transient: return false
            }
        }
    }

    private var entity: String {
        let attributes = attributeProperties.map { "        " + attribute($0) + "," }
        let relationships: [String] = ordered.compactMap {
            switch $0.kind {
            case .toOne(let destination):
                return "        FetchKit.Relationship.toOne(\(literal($0.name)), to: \(destination).self, "
                    + "foreignKey: \(literal($0.foreignKey))),"
            case .toMany(let destination, let inverse):
                return "        FetchKit.Relationship.toMany(\(literal($0.name)), to: \(destination).self, "
                    + "inverse: \(literal(inverse))),"
            case .primaryKey, .attribute, .transient:
                return nil
            }
        }
        return """
            \(access)nonisolated static let entity = FetchKit.Entity(
                \(literal(entityName)), table: \(literal(table)), primaryKey: entityPrimaryKey,
                attributes: [
            \(attributes.joined(separator: "\n"))
                ],
                relationships: [\(relationships.isEmpty ? "" : "\n" + relationships.joined(separator: "\n") + "\n    ")]
            )
            """
    }

    private func attribute(_ property: StoredProperty) -> String {
        var arguments: [String]
        switch property.kind {
        case .toOne(let destination):
            arguments = ["foreignKeyTo: \(destination).self", "named: \(literal(property.foreignKey))"]
        default:
            arguments = [literal(property.name), "for: \(property.type).self"]
            if let value = property.literalDefault { arguments.append("default: \(value)") }
        }
        if let column = property.column { arguments.append("column: \(literal(column))") }
        if property.isIndexed { arguments.append("indexed: true") }
        return "FetchKit.Attribute(\(arguments.joined(separator: ", ")))"
    }

    private var names: String {
        """
        \(access)nonisolated static var entityName: String { \(literal(entityName)) }

        \(access)nonisolated static var entityPrimaryKey: FetchKit.PrimaryKey {
            FetchKit.PrimaryKey(\(literal(primaryKey.name)), for: \(primaryKey.type).self)
        }
        """
    }

    private var storedMember: String {
        let cases: [String] = ordered.compactMap { property in
            let member: String
            switch property.kind {
            case .primaryKey, .attribute: member = ".attribute(\(literal(property.name)))"
            case .toOne(let destination): member = ".toOne(\(literal(property.name)), destination: \(destination).self)"
            case .toMany(let destination, _):
                member = ".toMany(\(literal(property.name)), destination: \(destination).self)"
            case .transient: return nil
            }
            return "    if keyPath == \\Self.\(property.name) as AnyKeyPath { return \(member) }"
        }
        return """
            \(access)nonisolated static func storedMember(for keyPath: AnyKeyPath) -> FetchKit.StoredMember? {
            \(cases.joined(separator: "\n"))
                return nil
            }
            """
    }

    /// The keys of key paths that cross a to-one relationship (`\Todo.category?.name` is `category.name`).
    private var storedPath: String {
        let relationships: [String] = ordered.compactMap { property in
            guard case .toOne = property.kind else { return nil }
            return "    if let path = storedPath(for: keyPath, through: \\Self.\(property.name), "
                + "named: \(literal(property.name))) { return path }"
        }
        return """
            \(access)nonisolated static func storedPath(for keyPath: AnyKeyPath) -> String? {
                if let member = storedMember(for: keyPath) { return member.name }
            \(relationships.joined(separator: "\n"))
                return nil
            }
            """
    }

    /// The to-one relationships a request can prefetch, each with its property; nothing (the protocol's default,
    /// none) for a type without any.
    private var toOneRelationships: String {
        let relationships: [String] = ordered.compactMap { property in
            guard case .toOne = property.kind else { return nil }
            return "        FetchKit.ToOneRelationship(\(literal(property.name)), \\Self.\(property.name)),"
        }
        guard !relationships.isEmpty else { return "" }
        return """

            \(access)nonisolated static var toOneRelationships: [FetchKit.ToOneRelationship<Self>] {
                [
            \(relationships.joined(separator: "\n"))
                ]
            }

            """
    }

    /// Each attribute's key path through an optional record of this type, for key paths that cross to it.
    private var optionalChainKeyPaths: String {
        let paths: [String] = ordered.compactMap { property in
            switch property.kind {
            case .primaryKey, .attribute:
                return "        (\\Self?.?.\(property.name), \(literal(property.name))),"
            case .toOne, .toMany, .transient:
                return nil
            }
        }
        return """
            \(access)nonisolated static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] {
                [
            \(paths.joined(separator: "\n"))
                ]
            }
            """
    }

    private var rowInitializer: String {
        let reads = attributeProperties.enumerated().map { position, property in
            if case .toOne = property.kind {
                return
                    "    self._\(property.name) = FetchKit.ToOne(key: try row.column(\(position), "
                    + "\(literal(property.foreignKey)), as: FetchKit.Value.self))"
            }
            return
                "    self.\(property.name) = try row.column(\(position), \(literal(property.name)), "
                + "as: \(property.type).self)"
        }
        return """
            \(access)nonisolated init(row: borrowing FetchKit.RecordRow) throws {
            \(reads.joined(separator: "\n"))
            }
            """
    }

    private var attributeValues: String {
        let values = attributeProperties.map { property in
            if case .toOne = property.kind { return "        self._\(property.name).key," }
            return "        FetchKit.Value.of(self.\(property.name)),"
        }
        return """
            \(access)nonisolated func attributeValues() -> [FetchKit.Value] {
                [
            \(values.joined(separator: "\n"))
                ]
            }
            """
    }

    private var codingKeys: String {
        let keys: [String] = ordered.flatMap { property -> [String] in
            switch property.kind {
            case .primaryKey, .attribute, .toMany: return [property.name]
            case .toOne: return [property.name, property.foreignKey]
            case .transient: return []
            }
        }
        return """
            private nonisolated enum CodingKeys: String, CodingKey {
                case \(keys.joined(separator: ", "))
            }
            """
    }

    private var decodingInitializer: String {
        let reads: [String] = ordered.compactMap { property in
            let key = "forKey: .\(property.name)"
            switch property.kind {
            case .primaryKey, .attribute:
                if let wrapped = property.wrappedType {
                    return "    self.\(property.name) = try container.decodeIfPresent(\(wrapped).self, \(key))"
                }
                return "    self.\(property.name) = try container.decode(\(property.type).self, \(key))"
            case .toOne:
                return "    self._\(property.name) = try FetchKit.ToOne(from: container, record: .\(property.name), "
                    + "key: .\(property.foreignKey))"
            case .toMany:
                return "    self._\(property.name) = try container.decodeIfPresent(\(property.type).self, \(key)) ?? []"
            case .transient:
                return nil
            }
        }
        return """
            \(access)nonisolated init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
            \(reads.joined(separator: "\n"))
            }
            """
    }

    private var encode: String {
        let writes: [String] = ordered.compactMap { property in
            let key = "forKey: .\(property.name)"
            switch property.kind {
            case .primaryKey, .attribute:
                let method = property.wrappedType == nil ? "encode" : "encodeIfPresent"
                return "    try container.\(method)(self.\(property.name), \(key))"
            case .toOne:
                return "    try self._\(property.name).encode(to: &container, record: .\(property.name), "
                    + "key: .\(property.foreignKey))"
            case .toMany:
                return "    try container.encode(self.\(property.name), \(key))"
            case .transient:
                return nil
            }
        }
        return """
            \(access)nonisolated func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
            \(writes.joined(separator: "\n"))
            }
            """
    }

    /// `"name"`, as a Swift string literal.
    private func literal(_ text: String) -> String {
        var escaped = "\""
        for character in text {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "\""
    }
}
