import FetchKit
import Foundation

extension Fixtures {
    /// The fixture schema's categories as a record with their todos, written by hand exactly as `@Entity`
    /// expands this declaration:
    ///
    /// ```swift
    /// @Entity("Category", table: "category")
    /// public struct LinkedCategory {
    ///     @PrimaryKey public var id: Int64?
    ///     @Attribute(indexed: true) public var name: String
    ///     public var position: Int = 0
    ///     @Relationship(inverse: \LinkedTodo.category) public var todos: [LinkedTodo] = []
    /// }
    /// ```
    public struct LinkedCategory: Equatable {
        public var id: Int64?
        public var name: String
        public var position: Int = 0
        /// The category's todos, when fetched or set (a fetched category has none loaded).
        public var todos: [LinkedTodo] = [] {
            @storageRestrictions(initializes: _todos)
            init(initialValue) { _todos = initialValue }
            get { _todos }
            set { _todos = newValue }
        }

        private var _todos: [LinkedTodo]

        /// A category.
        public init(id: Int64? = nil, name: String, position: Int = 0, todos: [LinkedTodo] = []) {
            self.id = id
            self.name = name
            self.position = position
            self.todos = todos
        }
    }
}

extension Fixtures.LinkedCategory: EntityRecord {
    public static let entity = Entity(
        "Category", table: "category", primaryKey: entityPrimaryKey,
        attributes: [
            Attribute("id", for: Int64?.self),
            Attribute("name", for: String.self, indexed: true),
            Attribute("position", for: Int.self, default: 0)
        ],
        relationships: [.toMany("todos", to: Fixtures.LinkedTodo.self, inverse: "category")])

    public static var entityName: String { "Category" }

    public static var entityPrimaryKey: PrimaryKey { PrimaryKey("id", for: Int64?.self) }

    public static func storedMember(for keyPath: AnyKeyPath) -> StoredMember? {
        if keyPath == \Self.id as AnyKeyPath { return .attribute("id") }
        if keyPath == \Self.name as AnyKeyPath { return .attribute("name") }
        if keyPath == \Self.position as AnyKeyPath { return .attribute("position") }
        if keyPath == \Self.todos as AnyKeyPath { return .toMany("todos", destination: Fixtures.LinkedTodo.self) }
        return nil
    }

    public static func storedPath(for keyPath: AnyKeyPath) -> String? {
        if let member = storedMember(for: keyPath) { return member.name }
        return nil
    }

    public static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] {
        [(\Self?.?.id, "id"), (\Self?.?.name, "name"), (\Self?.?.position, "position")]
    }

    public init(row: borrowing RecordRow) throws {
        self.id = try row.column(0, "id", as: Int64?.self)
        self.name = try row.column(1, "name", as: String.self)
        self.position = try row.column(2, "position", as: Int.self)
    }

    public func attributeValues() -> [Value] {
        [Value.of(self.id), Value.of(self.name), Value.of(self.position)]
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, position, todos
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decodeIfPresent(Int64.self, forKey: .id)
        self.name = try container.decode(String.self, forKey: .name)
        self.position = try container.decode(Int.self, forKey: .position)
        self._todos = try container.decodeIfPresent([Fixtures.LinkedTodo].self, forKey: .todos) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(self.id, forKey: .id)
        try container.encode(self.name, forKey: .name)
        try container.encode(self.position, forKey: .position)
        try container.encode(self.todos, forKey: .todos)
    }
}
