import FetchKit
import FetchKitFixtures
import Foundation

/// `#Predicate`s that cross relationships, fetched through the store and compared with Foundation's own
/// `Predicate.evaluate` over the same records linked in memory; and a live controller over one, checked by
/// the oracle through writes to both sides of the relationship.
extension StoreConformance {
    /// The relationship-predicate checks.
    static var relationshipPredicateChecks: [Check] {
        [
            Check(
                name: "#Predicate through relationships selects what Predicate.evaluate selects",
                body: { try await $0.checkRelationshipPredicates(on: $1) }),
            Check(
                name: "#Predicate through a relationship stays exact live",
                body: { try await $0.checkLiveRelationshipPredicate(on: $1) })
        ]
    }

    typealias LinkedTodo = Fixtures.LinkedTodo
    typealias LinkedCategory = Fixtures.LinkedCategory

    /// Predicates over todos that read their category.
    static func todoRelationshipPredicates() -> [(String, Predicate<LinkedTodo>)] {
        let work = "Work"
        return [
            ("category?.name == Work", #Predicate<LinkedTodo> { $0.category?.name == "Work" }),
            ("category?.name == captured", #Predicate<LinkedTodo> { $0.category?.name == work }),
            ("category?.name != Work", #Predicate<LinkedTodo> { $0.category?.name != "Work" }),
            ("category == nil", #Predicate<LinkedTodo> { $0.category == nil }),
            ("category != nil", #Predicate<LinkedTodo> { $0.category != nil }),
            ("category?.name starts(with:)", #Predicate<LinkedTodo> { $0.category?.name.starts(with: "H") == true }),
            ("!done && category?.name", #Predicate<LinkedTodo> { !$0.done && $0.category?.name == "Home" })
        ]
    }

    /// Predicates over categories that read their todos.
    static func categoryRelationshipPredicates() -> [(String, Predicate<LinkedCategory>)] {
        [
            ("todos.contains priority > 3", #Predicate<LinkedCategory> { $0.todos.contains { $0.priority > 3 } }),
            (
                "todos.contains done && priority",
                #Predicate<LinkedCategory> { $0.todos.contains { $0.done && $0.priority >= 2 } }
            ),
            ("todos.contains title", #Predicate<LinkedCategory> { $0.todos.contains { $0.title.contains("milk") } }),
            ("todos.allSatisfy done", #Predicate<LinkedCategory> { $0.todos.allSatisfy { $0.done } }),
            ("!todos.allSatisfy", #Predicate<LinkedCategory> { !$0.todos.allSatisfy { $0.priority > 0 } }),
            ("todos.count > 2", #Predicate<LinkedCategory> { $0.todos.count > 2 }),
            ("todos.count == 0", #Predicate<LinkedCategory> { $0.todos.count == 0 }),
            ("todos.isEmpty", #Predicate<LinkedCategory> { $0.todos.isEmpty }),
            ("!todos.isEmpty", #Predicate<LinkedCategory> { !$0.todos.isEmpty }),
            ("name || todos", #Predicate<LinkedCategory> { $0.name == "Home" || $0.todos.count >= 5 })
        ]
    }

    func checkRelationshipPredicates(on store: any PersistentStore) async throws {
        let (categories, todos) = Fixtures.linkedSample()
        for (name, predicate) in Self.todoRelationshipPredicates() {
            let expected = Set(try todos.filter { try predicate.evaluate($0) }.compactMap(\.id))
            let fetched = try await store.fetch(FetchRequest<LinkedTodo>(predicate: predicate))
            try expect(
                Set(fetched.compactMap(\.id)) == expected,
                "\(name): the store selects \(fetched.compactMap(\.id).sorted()), evaluate \(expected.sorted())")
        }
        for (name, predicate) in Self.categoryRelationshipPredicates() {
            let expected = Set(try categories.filter { try predicate.evaluate($0) }.compactMap(\.id))
            let fetched = try await store.fetch(FetchRequest<LinkedCategory>(predicate: predicate))
            try expect(
                Set(fetched.compactMap(\.id)) == expected,
                "\(name): the store selects \(fetched.compactMap(\.id).sorted()), evaluate \(expected.sorted())")
        }
    }

    func checkLiveRelationshipPredicate(on store: any PersistentStore) async throws {
        let request = try FetchRequest<LinkedTodo>(
            predicate: #Predicate { $0.category?.name == "Work" && !$0.done }, sortBy: [SortDescriptor(\.title)],
            sectionBy: \.category?.name)
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<LinkedTodo>()
        controller.delegate = recorder
        try await controller.performFetch()
        let writes: [@Sendable (any WriteTransaction) throws -> Void] = [
            { tx in _ = try tx.update("Category", key: 2, set: ["name": "Work"]) },
            { tx in _ = try tx.update("Todo", key: 8, set: ["categoryID": 1]) },
            { tx in _ = try tx.update("Category", key: 1, set: ["name": "Office"]) },
            { tx in _ = try tx.update("Todo", key: 3, set: ["done": true]) },
            { tx in _ = try tx.delete("Category", key: 2) }
        ]
        for write in writes {
            _ = try await store.write(write)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        for update in recorder.updates { try ResultsOracle.check(update) }
        try expect(recorder.updates.count > 1, "the writes emitted no batch")
    }
}
