@_spi(Backend) import FetchKit
import FetchKitMacros
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// Macro-declared records through a real SQLite store.
@Suite("@Entity records in a SQLite store")
struct EntityStoreTests {
    private func withStore(_ body: (SQLiteStore) async throws -> Void) async throws {
        try await SQLiteStore.inMemory(schema: try Schema([Category.entity, Todo.entity, Tag.entity])).closing(
            after: body)
    }

    private func todos(_ store: SQLiteStore) async throws -> [Todo] {
        try await store.fetch(FetchRequest(Todo.self, sortDescriptors: [.ascending("id")]), as: Todo.self)
    }

    static func sample(category: Category?) -> Todo {
        Todo(
            title: "Buy milk", position: 2.5, notes: "semi-skimmed", due: Date(timeIntervalSince1970: 1_700_000_000),
            token: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, payload: Data([1, 2, 3]),
            status: .waiting, previousStatus: .open, category: category, scratch: 7, createdBy: "ann")
    }

    @Test("the entity: primary key first, then the stored properties in order, the foreign key in place")
    func entity() throws {
        let entity = Todo.entity
        #expect(entity.name == "Todo" && entity.table == "todo")
        #expect(entity.primaryKey == .integer("id"))
        #expect(
            entity.attributes.map(\.name) == [
                "id", "title", "done", "position", "notes", "due", "token", "payload", "status", "previousStatus",
                "categoryID", "createdBy"
            ])
        #expect(entity.attribute(named: "done") == Attribute("done", .bool, default: .bool(false)))
        #expect(
            entity.attribute(named: "position")
                == Attribute("position", .double, column: "position_value", indexed: true))
        #expect(entity.attribute(named: "notes")?.isOptional == true)
        #expect(entity.attribute(named: "token") == Attribute("token", .text))
        #expect(entity.attribute(named: "payload") == Attribute("payload", .binary))
        #expect(entity.attribute(named: "status") == Attribute("status", .text))
        #expect(entity.attribute(named: "previousStatus") == Attribute("previousStatus", .text, optional: true))
        #expect(
            entity.attribute(named: "categoryID")
                == Attribute("categoryID", .integer, optional: true, column: "category_id"))
        #expect(entity.relationships == [.toOne("category", to: "Category", foreignKey: "categoryID")])
        #expect(Category.entity.relationships == [.toMany("todos", to: "Todo", inverse: "category")])
        #expect(Category.entity.attributes.map(\.name) == ["id", "name"])
    }

    @Test("a renamed entity with a text key in a renamed column, public members, and a negative default")
    func renamedEntity() {
        #expect(Tag.entity.name == "Label" && Tag.entity.table == "labels" && Tag.entityName == "Label")
        #expect(Tag.entity.primaryKey == .text("code"))
        #expect(
            Tag.entity.attributes == [
                Attribute("code", .text, column: "tag_code"), Attribute("rank", .integer, default: -1)
            ])
    }

    @Test("key paths map to attributes and relationships; transient, static and computed properties to nothing")
    func storedMembers() {
        #expect(Todo.storedMember(for: \Todo.title)?.name == "title")
        #expect(Todo.storedMember(for: \Todo.position)?.name == "position")
        guard case .toOne("category", let destination) = Todo.storedMember(for: \Todo.category) else {
            Issue.record("category is no to-one relationship")
            return
        }
        #expect(ObjectIdentifier(destination) == ObjectIdentifier(Category.self))
        guard case .toMany("todos", let elements) = Category.storedMember(for: \Category.todos) else {
            Issue.record("todos is no to-many relationship")
            return
        }
        #expect(ObjectIdentifier(elements) == ObjectIdentifier(Todo.self))
        #expect(Todo.storedMember(for: \Todo.scratch) == nil)
        #expect(Todo.storedMember(for: \Todo.isLate) == nil)
        #expect(Todo.storedMember(for: \Category.name) == nil)
    }

    @Test("records round-trip through the store: every attribute type, the raw-value enum, the foreign key")
    func roundTrip() async throws {
        try await withStore { store in
            let (category, todo, tag) = try await store.write { tx in
                let category = try tx.insert(Category(name: "Groceries"))
                let todo = try tx.insert(Self.sample(category: category))
                let tag = try tx.insert(Tag(code: "urgent", rank: 3))
                return (category, todo, tag)
            }
            #expect(category.id != nil && todo.id != nil)
            let fetched = try #require(try await todos(store).first)
            #expect(fetched.id == todo.id && fetched.title == "Buy milk" && fetched.status == .waiting)
            #expect(fetched.category == nil)
            #expect(fetched.attributeValues() == todo.attributeValues())
            #expect(fetched.attributeValues()[10] == .integer(category.id!))
            #expect(fetched.scratch == 0)
            let rows = try await store.fetch(FetchRequest(entity: "Todo"))
            #expect(rows.first?["categoryID"] == .integer(category.id!))
            #expect(rows.first?["status"] == .text("waiting"))
            let tags = try await store.fetch(FetchRequest(Tag.self), as: Tag.self)
            #expect(tags == [tag])
            let categories = try await store.fetch(FetchRequest(Category.self), as: Category.self)
            #expect(categories == [category])
        }
    }

    @Test("updating a record fetched without its category keeps the foreign key; setting nil clears it")
    func foreignKeySurvivesUpdate() async throws {
        try await withStore { store in
            let categoryID = try await store.write { tx in
                let category = try tx.insert(Category(name: "Work"))
                try tx.insert(Self.sample(category: category))
                return try #require(category.id)
            }
            var fetched = try #require(try await todos(store).first)
            fetched.title = "Buy oat milk"
            try await store.write { [fetched] tx in try tx.update(fetched) }
            var rows = try await store.fetch(FetchRequest(entity: "Todo"))
            #expect(rows.first?["title"] == .text("Buy oat milk"))
            #expect(rows.first?["categoryID"] == .integer(categoryID))
            fetched.category = nil
            try await store.write { [fetched] tx in try tx.update(fetched) }
            rows = try await store.fetch(FetchRequest(entity: "Todo"))
            #expect(rows.first?["categoryID"] == .null)
        }
    }

    @Test("a bulk insert writes every attribute, foreign keys included")
    func bulkInsert() async throws {
        try await withStore { store in
            let categoryID = try await store.write { tx in
                let category = try tx.insert(Category(name: "Errands"))
                try tx.insert(contentsOf: [Self.sample(category: category), Self.sample(category: nil)])
                return try #require(category.id)
            }
            let rows = try await store.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
            #expect(rows.map { $0["categoryID"] } == [.integer(categoryID), .null])
            #expect(try await todos(store).map(\.status) == [.waiting, .waiting])
        }
    }

    @Test("a raw value that is no case throws recordMapping naming the attribute")
    func unknownRawValue() async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(Self.sample(category: nil))
                try tx.execute("UPDATE todo SET status = 'lost'", [])
            }
            await #expect(
                throws: FetchKitError.recordMapping(entity: "Todo", detail: "'status' expected Status, found \"lost\"")
            ) {
                try await todos(store)
            }
        }
    }

    @Test("records round-trip through JSON: relationships as nested records, the key without its record")
    func json() throws {
        var category = Category(id: 4, name: "Home")
        let todo = Self.sample(category: category)
        var nested = todo
        nested.scratch = 0
        category.todos = [nested]
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        var decodedTodo = try decoder.decode(Todo.self, from: try encoder.encode(todo))
        #expect(decodedTodo.scratch == 0)
        decodedTodo.scratch = todo.scratch
        #expect(decodedTodo == todo)
        #expect(try decoder.decode(Category.self, from: try encoder.encode(category)) == category)
        let keyOnly = try decoder.decode(
            Todo.self,
            from: Data(
                (#"{"title":"t","done":true,"position":1,"token":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","#
                    + #""payload":"AQ==","status":"open","categoryID":9,"createdBy":"bo"}"#).utf8))
        #expect(keyOnly.category == nil && keyOnly.attributeValues()[10] == .integer(9) && keyOnly.done)
        let json = try #require(String(data: try encoder.encode(keyOnly), encoding: .utf8))
        #expect(json.contains(#""categoryID":9"#) && !json.contains("scratch"))
    }

    @Test("RecordCoding encodes an @Entity record from its attribute values, foreign key included")
    func recordCoding() throws {
        let todo = Self.sample(category: Category(id: 12, name: "Garden"))
        let row = try RecordCoding.encode(todo)
        #expect(row.names == Todo.entity.attributes.map(\.name))
        #expect(row["categoryID"] == .integer(12))
        #expect(row["id"] == .null)
        #expect(row["previousStatus"] == .text("open"))
        let decoded = try RecordCoding.decode(Todo.self, from: row)
        #expect(decoded.attributeValues() == todo.attributeValues())
    }

    @Test("ToOne keeps the key of its record, compares keys and records")
    func toOne() {
        let category = Category(id: 3, name: "Books")
        #expect(ToOne(category).key == .integer(3))
        #expect(ToOne<Category>(nil).key == .null)
        #expect(ToOne<Category>(key: .integer(3)) != ToOne(category))
        #expect(ToOne<Category>(key: .integer(3)).record == nil)
    }
}
