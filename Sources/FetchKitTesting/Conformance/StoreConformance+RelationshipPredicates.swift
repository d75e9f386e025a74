import FetchKit
import FetchKitFixtures
import Foundation

/// `#Predicate`s that cross relationships, fetched through the store and compared with Foundation's own
/// `Predicate.evaluate` over the same records linked in memory; and a live controller over one, checked by
/// the oracle through writes to both sides of the relationship.
extension StoreConformance {
    func checkRelationshipPredicates<Todo: ConformanceTodo>(_: Todo.Type, on store: any PersistentStore)
        async throws
    {
        let (categories, todos) = Todo.linkedSample()
        for (name, predicate) in Todo.relationshipPredicates {
            let expected = Set(try todos.filter { try predicate.evaluate($0) }.compactMap(\.id))
            let fetched = try await store.fetch(FetchRequest<Todo>(predicate: predicate))
            try expect(
                Set(fetched.compactMap(\.id)) == expected,
                "\(name): the store selects \(fetched.compactMap(\.id).sorted()), evaluate \(expected.sorted())")
        }
        for (name, predicate) in Todo.Category.relationshipPredicates {
            let expected = Set(try categories.filter { try predicate.evaluate($0) }.compactMap(\.id))
            let fetched = try await store.fetch(FetchRequest<Todo.Category>(predicate: predicate))
            try expect(
                Set(fetched.compactMap(\.id)) == expected,
                "\(name): the store selects \(fetched.compactMap(\.id).sorted()), evaluate \(expected.sorted())")
        }
    }

    func checkLiveRelationshipPredicate<Todo: ConformanceTodo>(_: Todo.Type, on store: any PersistentStore)
        async throws
    {
        let controller = ResultsController(store: store, request: try Todo.openWorkTodos())
        let recorder = ResultsRecorder<Todo>()
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
        try recorder.checkCallbackOrder()
        for update in recorder.updates { try ResultsOracle.check(update) }
        try expect(recorder.updates.count > 1, "the writes emitted no batch")
    }
}
