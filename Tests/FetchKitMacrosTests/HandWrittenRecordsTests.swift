import FetchKitFixtures
import FetchKitMacroFixtures
import FetchKitMacros
import FetchKitTesting
import Foundation
import Testing

/// The fixture records written by hand (`Fixtures.LinkedTodo`, `LinkedCategory`: what `fetchkit` and the
/// conformance suite use without swift-syntax) are what `@Entity` writes for the same declarations.
@Suite("Hand-written fixture records are what @Entity writes")
struct HandWrittenRecordsTests {
    @Test("the entities equal the macro's and the fixture schema's")
    func entities() {
        #expect(Fixtures.LinkedTodo.entity == MacroTodo.entity)
        #expect(Fixtures.LinkedCategory.entity == MacroCategory.entity)
        #expect(MacroTodo.entity == Fixtures.todo)
        #expect(MacroCategory.entity == Fixtures.category)
    }

    @Test("each key path stores the same key")
    func keyPaths() {
        let todos: [(AnyKeyPath, AnyKeyPath)] = [
            (\Fixtures.LinkedTodo.id, \MacroTodo.id), (\Fixtures.LinkedTodo.title, \MacroTodo.title),
            (\Fixtures.LinkedTodo.notes, \MacroTodo.notes), (\Fixtures.LinkedTodo.priority, \MacroTodo.priority),
            (\Fixtures.LinkedTodo.ordering, \MacroTodo.ordering), (\Fixtures.LinkedTodo.done, \MacroTodo.done),
            (\Fixtures.LinkedTodo.due, \MacroTodo.due), (\Fixtures.LinkedTodo.attachment, \MacroTodo.attachment),
            (\Fixtures.LinkedTodo.category, \MacroTodo.category),
            (\Fixtures.LinkedTodo.category?.name, \MacroTodo.category?.name),
            (\Fixtures.LinkedTodo.category?.position, \MacroTodo.category?.position),
            (\Fixtures.LinkedTodo.title.count, \MacroTodo.title.count)
        ]
        for (hand, macro) in todos {
            #expect(Fixtures.LinkedTodo.storedPath(for: hand) == MacroTodo.storedPath(for: macro), "\(macro)")
        }
        let categories: [(AnyKeyPath, AnyKeyPath)] = [
            (\Fixtures.LinkedCategory.id, \MacroCategory.id), (\Fixtures.LinkedCategory.name, \MacroCategory.name),
            (\Fixtures.LinkedCategory.position, \MacroCategory.position),
            (\Fixtures.LinkedCategory.todos, \MacroCategory.todos)
        ]
        for (hand, macro) in categories {
            #expect(Fixtures.LinkedCategory.storedPath(for: hand) == MacroCategory.storedPath(for: macro), "\(macro)")
        }
        #expect(Fixtures.LinkedTodo.toOneRelationships.map(\.name) == MacroTodo.toOneRelationships.map(\.name))
        #expect(
            Fixtures.LinkedCategory.toOneRelationships.map(\.name) == MacroCategory.toOneRelationships.map(\.name))
        #expect(
            Fixtures.LinkedTodo.optionalChainKeyPaths.map(\.attribute)
                == MacroTodo.optionalChainKeyPaths.map(\.attribute))
        #expect(
            Fixtures.LinkedCategory.optionalChainKeyPaths.map(\.attribute)
                == MacroCategory.optionalChainKeyPaths.map(\.attribute))
    }

    @Test("the same todo writes the same values and encodes to the same JSON, with its category or its key")
    func values() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for record in Fixtures.sampleTodos {
            var hand = Fixtures.LinkedTodo(record)
            var macro = MacroTodo(record)
            #expect(hand.attributeValues() == macro.attributeValues())
            if let category = Fixtures.sampleCategories.first(where: { $0.id == record.categoryID }) {
                hand.category = Fixtures.LinkedCategory(category)
                macro.category = MacroCategory(category)
            }
            #expect(hand.attributeValues() == macro.attributeValues())
            let json = try encoder.encode(hand)
            #expect(json == (try encoder.encode(macro)))
            #expect(try JSONDecoder().decode(Fixtures.LinkedTodo.self, from: json) == hand)
        }
    }
}
