@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitMacroFixtures
import Foundation
import Testing

/// The fixture records declared with `@Entity` (`MacroTodo`, `MacroCategory`: the `fetchkit` demos' records and
/// the conformance suite's record checks') store exactly the fixture schema and the plain records' values.
@Suite("The @Entity fixture records match the fixture schema")
struct FixtureRecordsTests {
    @Test("the entities equal the fixture schema's")
    func entities() {
        #expect(MacroTodo.entity == Fixtures.todo)
        #expect(MacroCategory.entity == Fixtures.category)
    }

    @Test("each key path stores its attribute or relationship, and a computed one stores nothing")
    func keyPaths() {
        let todos: [(AnyKeyPath, String?)] = [
            (\MacroTodo.id, "id"), (\MacroTodo.title, "title"), (\MacroTodo.notes, "notes"),
            (\MacroTodo.priority, "priority"), (\MacroTodo.ordering, "ordering"), (\MacroTodo.done, "done"),
            (\MacroTodo.due, "due"), (\MacroTodo.attachment, "attachment"), (\MacroTodo.category, "category"),
            (\MacroTodo.category?.name, "category.name"), (\MacroTodo.category?.position, "category.position"),
            (\MacroTodo.title.count, nil)
        ]
        for (keyPath, key) in todos {
            #expect(MacroTodo.storedPath(for: keyPath) == key, "\(keyPath)")
        }
        let categories: [(AnyKeyPath, String?)] = [
            (\MacroCategory.id, "id"), (\MacroCategory.name, "name"), (\MacroCategory.position, "position"),
            (\MacroCategory.todos, "todos")
        ]
        for (keyPath, key) in categories {
            #expect(MacroCategory.storedPath(for: keyPath) == key, "\(keyPath)")
        }
        #expect(MacroTodo.toOneRelationships.map(\.name) == ["category"])
        #expect(MacroCategory.toOneRelationships.isEmpty)
        #expect(
            MacroTodo.optionalChainKeyPaths.map(\.attribute)
                == ["id", "title", "notes", "priority", "ordering", "done", "due", "attachment"])
        #expect(MacroCategory.optionalChainKeyPaths.map(\.attribute) == ["id", "name", "position"])
    }

    @Test("a todo writes the plain record's values, without its category or with it, and round-trips through JSON")
    func values() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for record in Fixtures.sampleTodos {
            var todo = MacroTodo(record)
            var withoutCategory = record
            withoutCategory.categoryID = nil
            #expect(try RecordCoding.encode(todo) == RecordCoding.encode(withoutCategory))
            todo.category = Fixtures.sampleCategories.first { $0.id == record.categoryID }.map(MacroCategory.init)
            #expect(try RecordCoding.encode(todo) == RecordCoding.encode(record))
            let json = try encoder.encode(todo)
            #expect(try JSONDecoder().decode(MacroTodo.self, from: json) == todo)
        }
    }
}
