import FetchKit
import FetchKitFixtures
import FetchKitMacroFixtures
import Foundation
import Testing

/// `FetchRequest<Record>`: `#Predicate`, `SortDescriptor` and section key paths, including relationships,
/// translate to the fetch predicates and keys the format strings produce.
@Suite("Typed requests: #Predicate, key-path sorts and sections, relationships")
struct TypedRequestTests {
    /// The predicate a format string parses to.
    func format(_ text: String) throws -> FetchPredicate {
        try FetchPredicate(format: text)
    }

    @Test func attributesTranslateAsTheirFormatStrings() throws {
        let request = try FetchRequest<MacroTodo>(predicate: #Predicate { !$0.done && $0.priority > 2 })
        #expect(request.predicate == (try format("NOT done == YES AND priority > 2")))
        #expect(request.entityName == "Todo")
    }

    @Test func anOptionalChainThroughAToOneRelationshipReadsTheRelatedAttribute() throws {
        let request = try FetchRequest<MacroTodo>(predicate: #Predicate { $0.category?.name == "Work" })
        #expect(request.predicate == (try format("category.name == 'Work'")))
    }

    @Test func aToOneRelationshipComparedToNilIsItsForeignKey() throws {
        let request = try FetchRequest<MacroTodo>(predicate: #Predicate { $0.category == nil })
        #expect(request.predicate == (try format("category == nil")))
    }

    @Test func closuresOverAToManyRelationshipAreSubqueries() throws {
        let some = try FetchRequest<MacroCategory>(
            predicate: #Predicate { $0.todos.contains { $0.priority > 3 } })
        #expect(some.predicate == (try format("SUBQUERY(todos, $e1, $e1.priority > 3).@count > 0")))
        let all = try FetchRequest<MacroCategory>(predicate: #Predicate { $0.todos.allSatisfy { $0.done } })
        #expect(all.predicate == (try format("SUBQUERY(todos, $e1, NOT $e1.done == YES).@count == 0")))
        let nested = try FetchRequest<MacroCategory>(
            predicate: #Predicate { category in
                category.todos.contains { todo in todo.category?.todos.contains { $0.done } == true }
            })
        #expect(nested.predicate.predicateFormat.contains("$e2"))
    }

    @Test func countAndIsEmptyOfAToManyRelationship() throws {
        let many = try FetchRequest<MacroCategory>(predicate: #Predicate { $0.todos.count > 2 })
        #expect(many.predicate == (try format("todos.@count > 2")))
        let some = try FetchRequest<MacroCategory>(predicate: #Predicate { !$0.todos.isEmpty })
        #expect(some.predicate == (try format("NOT todos.@count == 0")))
    }

    @Test func sortDescriptorsAndSectionsByKeyPath() throws {
        let request = try FetchRequest<MacroTodo>(
            sortBy: [SortDescriptor(\.priority, order: .reverse), SortDescriptor(\.title)],
            sectionBy: \.category?.name, fetchLimit: 5)
        #expect(request.sortDescriptors == [.descending("priority"), .ascending("title")])
        #expect(request.sectionNameKeyPath == "category.name")
        #expect(request.fetchLimit == 5)
    }

    @Test func aKeyPathThatStoresNothingIsATypedErrorNamingIt() throws {
        let error = try #require(throws: FetchKitError.self) {
            try FetchRequest<MacroTodo>(sortBy: [SortDescriptor(\.title.count)])
        }
        #expect(error.code == .unknownKey)
        #expect(error.message.contains("MacroTodo"))
    }

    @Test func anUntranslatableConstructNamesItself() throws {
        let error = try #require(throws: FetchKitError.self) {
            try FetchRequest<MacroTodo>(predicate: #Predicate { $0.title.count > 3 })
        }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("PredicateExpressions.KeyPath"))
    }

    @Test func aDynamicRequestRetypesOnlyToItsEntitysRecords() throws {
        let rows = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("title")])
        #expect(try FetchRequest<MacroTodo>(rows.erased).sortDescriptors == [.ascending("title")])
        let error = try #require(throws: FetchKitError.self) { try FetchRequest<MacroCategory>(rows.erased) }
        #expect(error.code == .recordMapping)
    }
}
