import Testing

@Suite("@Entity expansion")
struct EntityExpansionTests {
    @Test("the full example expands to the conformance, the storage of its to-one relationship and nothing else")
    func fullExample() {
        assertExpansion(
            """
            @Entity(table: "todo")
            struct Todo {
                @PrimaryKey var id: Int64?
                var title: String
                var done = false
                @Attribute(column: "position_value", indexed: true) var position: Double
                var notes: String?
                var due: Date?
                var token: UUID
                var payload: Data
                var status: Status
                @Relationship(column: "category_id") var category: Category?
                @Transient var scratch = 0
                static var shared = 1
                var computed: Int { 1 }
            }
            """,
            expandedSource: """
                struct Todo {
                    var id: Int64?
                    var title: String
                    var done = false
                    var position: Double
                    var notes: String?
                    var due: Date?
                    var token: UUID
                    var payload: Data
                    var status: Status
                    var category: Category? {
                        @storageRestrictions(initializes: _category)
                        init(initialValue) {
                            _category = FetchKit.ToOne(initialValue)
                        }
                        get {
                            _category.record
                        }
                        set {
                            _category = FetchKit.ToOne(newValue)
                        }
                    }

                    private var _category: FetchKit.ToOne<Category>
                    var scratch = 0
                    static var shared = 1
                    var computed: Int { 1 }
                }

                extension Todo: nonisolated FetchKit.EntityRecord {
                    nonisolated static let entity = FetchKit.Entity(
                        "Todo", table: "todo", primaryKey: entityPrimaryKey,
                        attributes: [
                            FetchKit.Attribute("id", for: Int64?.self),
                            FetchKit.Attribute("title", for: String.self),
                            FetchKit.Attribute("done", for: Bool.self, default: false),
                            FetchKit.Attribute("position", for: Double.self, column: "position_value", indexed: true),
                            FetchKit.Attribute("notes", for: String?.self),
                            FetchKit.Attribute("due", for: Date?.self),
                            FetchKit.Attribute("token", for: UUID.self),
                            FetchKit.Attribute("payload", for: Data.self),
                            FetchKit.Attribute("status", for: Status.self),
                            FetchKit.Attribute(foreignKeyTo: Category.self, named: "categoryID", column: "category_id"),
                        ],
                        relationships: [
                            FetchKit.Relationship.toOne("category", to: Category.self, foreignKey: "categoryID"),
                        ]
                    )

                    nonisolated static var entityName: String {
                        "Todo"
                    }

                    nonisolated static var entityPrimaryKey: FetchKit.PrimaryKey {
                        FetchKit.PrimaryKey("id", for: Int64?.self)
                    }

                    nonisolated static func storedMember(for keyPath: AnyKeyPath) -> FetchKit.StoredMember? {
                        if keyPath == \\Self.id as AnyKeyPath {
                            return .attribute("id")
                        }
                        if keyPath == \\Self.title as AnyKeyPath {
                            return .attribute("title")
                        }
                        if keyPath == \\Self.done as AnyKeyPath {
                            return .attribute("done")
                        }
                        if keyPath == \\Self.position as AnyKeyPath {
                            return .attribute("position")
                        }
                        if keyPath == \\Self.notes as AnyKeyPath {
                            return .attribute("notes")
                        }
                        if keyPath == \\Self.due as AnyKeyPath {
                            return .attribute("due")
                        }
                        if keyPath == \\Self.token as AnyKeyPath {
                            return .attribute("token")
                        }
                        if keyPath == \\Self.payload as AnyKeyPath {
                            return .attribute("payload")
                        }
                        if keyPath == \\Self.status as AnyKeyPath {
                            return .attribute("status")
                        }
                        if keyPath == \\Self.category as AnyKeyPath {
                            return .toOne("category", destination: Category.self)
                        }
                        return nil
                    }

                    nonisolated static func storedPath(for keyPath: AnyKeyPath) -> String? {
                        if let member = storedMember(for: keyPath) {
                            return member.name
                        }
                        if let path = storedPath(for: keyPath, through: \\Self.category, named: "category") {
                            return path
                        }
                        return nil
                    }

                    nonisolated static var toOneRelationships: [FetchKit.ToOneRelationship<Self>] {
                        [
                            FetchKit.ToOneRelationship("category", \\Self.category),
                        ]
                    }

                    nonisolated static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] {
                        [
                            (\\Self?.?.id, "id"),
                            (\\Self?.?.title, "title"),
                            (\\Self?.?.done, "done"),
                            (\\Self?.?.position, "position"),
                            (\\Self?.?.notes, "notes"),
                            (\\Self?.?.due, "due"),
                            (\\Self?.?.token, "token"),
                            (\\Self?.?.payload, "payload"),
                            (\\Self?.?.status, "status"),
                        ]
                    }

                    nonisolated init(row: borrowing FetchKit.RecordRow) throws {
                        self.id = try row.column(0, "id", as: Int64?.self)
                        self.title = try row.column(1, "title", as: String.self)
                        self.done = try row.column(2, "done", as: Bool.self)
                        self.position = try row.column(3, "position", as: Double.self)
                        self.notes = try row.column(4, "notes", as: String?.self)
                        self.due = try row.column(5, "due", as: Date?.self)
                        self.token = try row.column(6, "token", as: UUID.self)
                        self.payload = try row.column(7, "payload", as: Data.self)
                        self.status = try row.column(8, "status", as: Status.self)
                        self._category = FetchKit.ToOne(key: try row.column(9, "categoryID", as: FetchKit.Value.self))
                    }

                    nonisolated func attributeValues() -> [FetchKit.Value] {
                        [
                            FetchKit.Value.of(self.id),
                            FetchKit.Value.of(self.title),
                            FetchKit.Value.of(self.done),
                            FetchKit.Value.of(self.position),
                            FetchKit.Value.of(self.notes),
                            FetchKit.Value.of(self.due),
                            FetchKit.Value.of(self.token),
                            FetchKit.Value.of(self.payload),
                            FetchKit.Value.of(self.status),
                            self._category.key,
                        ]
                    }

                    private nonisolated enum CodingKeys: String, CodingKey {
                        case id, title, done, position, notes, due, token, payload, status, category, categoryID
                    }

                    nonisolated init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        self.id = try container.decodeIfPresent(Int64.self, forKey: .id)
                        self.title = try container.decode(String.self, forKey: .title)
                        self.done = try container.decode(Bool.self, forKey: .done)
                        self.position = try container.decode(Double.self, forKey: .position)
                        self.notes = try container.decodeIfPresent(String.self, forKey: .notes)
                        self.due = try container.decodeIfPresent(Date.self, forKey: .due)
                        self.token = try container.decode(UUID.self, forKey: .token)
                        self.payload = try container.decode(Data.self, forKey: .payload)
                        self.status = try container.decode(Status.self, forKey: .status)
                        self._category = try FetchKit.ToOne(from: container, record: .category, key: .categoryID)
                    }

                    nonisolated func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container.encodeIfPresent(self.id, forKey: .id)
                        try container.encode(self.title, forKey: .title)
                        try container.encode(self.done, forKey: .done)
                        try container.encode(self.position, forKey: .position)
                        try container.encodeIfPresent(self.notes, forKey: .notes)
                        try container.encodeIfPresent(self.due, forKey: .due)
                        try container.encode(self.token, forKey: .token)
                        try container.encode(self.payload, forKey: .payload)
                        try container.encode(self.status, forKey: .status)
                        try self._category.encode(to: &container, record: .category, key: .categoryID)
                    }
                }
                """)
    }

    @Test("a public type with a to-many relationship and a renamed entity: public members, backed storage")
    func publicToMany() {
        assertExpansion(
            """
            @Entity("Group", table: "category")
            public struct Category {
                @PrimaryKey(column: "category_id") public var id: Int64?
                public var name: String
                @Relationship(inverse: \\Todo.category) public var todos: [Todo] = []
            }
            """,
            expandedSource: """
                public struct Category {
                    public var id: Int64?
                    public var name: String
                    public var todos: [Todo] {
                        @storageRestrictions(initializes: _todos)
                        init(initialValue) {
                            _todos = initialValue
                        }
                        get {
                            _todos
                        }
                        set {
                            _todos = newValue
                        }
                    }

                    private var _todos: [Todo]
                }

                extension Category: nonisolated FetchKit.EntityRecord {
                    public nonisolated static let entity = FetchKit.Entity(
                        "Group", table: "category", primaryKey: entityPrimaryKey,
                        attributes: [
                            FetchKit.Attribute("id", for: Int64?.self, column: "category_id"),
                            FetchKit.Attribute("name", for: String.self),
                        ],
                        relationships: [
                            FetchKit.Relationship.toMany("todos", to: Todo.self, inverse: "category"),
                        ]
                    )

                    public nonisolated static var entityName: String {
                        "Group"
                    }

                    public nonisolated static var entityPrimaryKey: FetchKit.PrimaryKey {
                        FetchKit.PrimaryKey("id", for: Int64?.self)
                    }

                    public nonisolated static func storedMember(for keyPath: AnyKeyPath) -> FetchKit.StoredMember? {
                        if keyPath == \\Self.id as AnyKeyPath {
                            return .attribute("id")
                        }
                        if keyPath == \\Self.name as AnyKeyPath {
                            return .attribute("name")
                        }
                        if keyPath == \\Self.todos as AnyKeyPath {
                            return .toMany("todos", destination: Todo.self)
                        }
                        return nil
                    }

                    public nonisolated static func storedPath(for keyPath: AnyKeyPath) -> String? {
                        if let member = storedMember(for: keyPath) {
                            return member.name
                        }

                        return nil
                    }

                    public nonisolated static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] {
                        [
                            (\\Self?.?.id, "id"),
                            (\\Self?.?.name, "name"),
                        ]
                    }

                    public nonisolated init(row: borrowing FetchKit.RecordRow) throws {
                        self.id = try row.column(0, "id", as: Int64?.self)
                        self.name = try row.column(1, "name", as: String.self)
                    }

                    public nonisolated func attributeValues() -> [FetchKit.Value] {
                        [
                            FetchKit.Value.of(self.id),
                            FetchKit.Value.of(self.name),
                        ]
                    }

                    private nonisolated enum CodingKeys: String, CodingKey {
                        case id, name, todos
                    }

                    public nonisolated init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        self.id = try container.decodeIfPresent(Int64.self, forKey: .id)
                        self.name = try container.decode(String.self, forKey: .name)
                        self._todos = try container.decodeIfPresent([Todo].self, forKey: .todos) ?? []
                    }

                    public nonisolated func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        try container.encodeIfPresent(self.id, forKey: .id)
                        try container.encode(self.name, forKey: .name)
                        try container.encode(self.todos, forKey: .todos)
                    }
                }
                """)
    }
}
