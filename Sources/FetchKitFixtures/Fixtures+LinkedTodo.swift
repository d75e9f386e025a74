import FetchKit
import Foundation

extension Fixtures {
    /// The fixture schema's todos as a record with its category, written by hand exactly as `@Entity` expands
    /// this declaration (targets that use it, `fetchkit` among them, build without swift-syntax):
    ///
    /// ```swift
    /// @Entity("Todo", table: "todo")
    /// public struct LinkedTodo {
    ///     @PrimaryKey public var id: Int64?
    ///     @Attribute(indexed: true) public var title: String
    ///     public var notes: String?
    ///     public var priority: Int = 0
    ///     @Attribute(indexed: true) public var ordering: Double?
    ///     public var done: Bool = false
    ///     public var due: Date?
    ///     public var attachment: Data?
    ///     @Relationship(column: "category_id") public var category: LinkedCategory?
    /// }
    /// ```
    public struct LinkedTodo: Equatable {
        public var id: Int64?
        public var title: String
        public var notes: String?
        public var priority: Int = 0
        public var ordering: Double?
        public var done: Bool = false
        public var due: Date?
        public var attachment: Data?
        /// The related category, when fetched or set; a todo fetched without it keeps its key.
        public var category: LinkedCategory? {
            @storageRestrictions(initializes: _category)
            init(initialValue) { _category = ToOne(initialValue) }
            get { _category.record }
            set { _category = ToOne(newValue) }
        }

        private var _category: ToOne<LinkedCategory>

        /// A todo; `category` sets its category's key (a record named by its key will do).
        public init(
            id: Int64? = nil, title: String, notes: String? = nil, priority: Int = 0, ordering: Double? = nil,
            done: Bool = false, due: Date? = nil, attachment: Data? = nil, category: LinkedCategory? = nil
        ) {
            self.id = id
            self.title = title
            self.notes = notes
            self.priority = priority
            self.ordering = ordering
            self.done = done
            self.due = due
            self.attachment = attachment
            self.category = category
        }
    }
}

extension Fixtures.LinkedTodo: EntityRecord {
    public static let entity = Entity(
        "Todo", table: "todo", primaryKey: entityPrimaryKey,
        attributes: [
            Attribute("id", for: Int64?.self),
            Attribute("title", for: String.self, indexed: true),
            Attribute("notes", for: String?.self),
            Attribute("priority", for: Int.self, default: 0),
            Attribute("ordering", for: Double?.self, indexed: true),
            Attribute("done", for: Bool.self, default: false),
            Attribute("due", for: Date?.self),
            Attribute("attachment", for: Data?.self),
            Attribute(foreignKeyTo: Fixtures.LinkedCategory.self, named: "categoryID", column: "category_id")
        ],
        relationships: [.toOne("category", to: Fixtures.LinkedCategory.self, foreignKey: "categoryID")])

    public static var entityName: String { "Todo" }

    public static var entityPrimaryKey: PrimaryKey { PrimaryKey("id", for: Int64?.self) }

    public static func storedMember(for keyPath: AnyKeyPath) -> StoredMember? {
        if keyPath == \Self.id as AnyKeyPath { return .attribute("id") }
        if keyPath == \Self.title as AnyKeyPath { return .attribute("title") }
        if keyPath == \Self.notes as AnyKeyPath { return .attribute("notes") }
        if keyPath == \Self.priority as AnyKeyPath { return .attribute("priority") }
        if keyPath == \Self.ordering as AnyKeyPath { return .attribute("ordering") }
        if keyPath == \Self.done as AnyKeyPath { return .attribute("done") }
        if keyPath == \Self.due as AnyKeyPath { return .attribute("due") }
        if keyPath == \Self.attachment as AnyKeyPath { return .attribute("attachment") }
        if keyPath == \Self.category as AnyKeyPath {
            return .toOne("category", destination: Fixtures.LinkedCategory.self)
        }
        return nil
    }

    public static func storedPath(for keyPath: AnyKeyPath) -> String? {
        if let member = storedMember(for: keyPath) { return member.name }
        if let path = storedPath(for: keyPath, through: \Self.category, named: "category") { return path }
        return nil
    }

    public static var toOneRelationships: [ToOneRelationship<Self>] {
        [ToOneRelationship("category", \Self.category)]
    }

    public static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] {
        [
            (\Self?.?.id, "id"), (\Self?.?.title, "title"), (\Self?.?.notes, "notes"),
            (\Self?.?.priority, "priority"), (\Self?.?.ordering, "ordering"), (\Self?.?.done, "done"),
            (\Self?.?.due, "due"), (\Self?.?.attachment, "attachment")
        ]
    }

    public init(row: borrowing RecordRow) throws {
        self.id = try row.column(0, "id", as: Int64?.self)
        self.title = try row.column(1, "title", as: String.self)
        self.notes = try row.column(2, "notes", as: String?.self)
        self.priority = try row.column(3, "priority", as: Int.self)
        self.ordering = try row.column(4, "ordering", as: Double?.self)
        self.done = try row.column(5, "done", as: Bool.self)
        self.due = try row.column(6, "due", as: Date?.self)
        self.attachment = try row.column(7, "attachment", as: Data?.self)
        self._category = ToOne(key: try row.column(8, "categoryID", as: Value.self))
    }

    public func attributeValues() -> [Value] {
        [
            Value.of(self.id), Value.of(self.title), Value.of(self.notes), Value.of(self.priority),
            Value.of(self.ordering), Value.of(self.done), Value.of(self.due), Value.of(self.attachment),
            self._category.key
        ]
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, notes, priority, ordering, done, due, attachment, category, categoryID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decodeIfPresent(Int64.self, forKey: .id)
        self.title = try container.decode(String.self, forKey: .title)
        self.notes = try container.decodeIfPresent(String.self, forKey: .notes)
        self.priority = try container.decode(Int.self, forKey: .priority)
        self.ordering = try container.decodeIfPresent(Double.self, forKey: .ordering)
        self.done = try container.decode(Bool.self, forKey: .done)
        self.due = try container.decodeIfPresent(Date.self, forKey: .due)
        self.attachment = try container.decodeIfPresent(Data.self, forKey: .attachment)
        self._category = try ToOne(from: container, record: .category, key: .categoryID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(self.id, forKey: .id)
        try container.encode(self.title, forKey: .title)
        try container.encodeIfPresent(self.notes, forKey: .notes)
        try container.encode(self.priority, forKey: .priority)
        try container.encodeIfPresent(self.ordering, forKey: .ordering)
        try container.encode(self.done, forKey: .done)
        try container.encodeIfPresent(self.due, forKey: .due)
        try container.encodeIfPresent(self.attachment, forKey: .attachment)
        try self._category.encode(to: &container, record: .category, key: .categoryID)
    }
}
