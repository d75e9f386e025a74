import FetchKit
import FetchKitFixtures
import Foundation

/// Prefetched to-one relationships: a fetch sets each record's related record as the sample links them, and a
/// live controller's records follow their related rows, with a batch that updates exactly the rows whose
/// related record changed.
extension StoreConformance {
    /// Each todo's key with its category's name (`nil` without one).
    private static func categoryNames<Todo: ConformanceTodo>(of todos: [Todo]) -> [Int64: String?] {
        Dictionary(uniqueKeysWithValues: todos.compactMap { todo in todo.id.map { ($0, todo.category?.name) } })
    }

    func checkPrefetchedFetch<Todo: ConformanceTodo>(_: Todo.Type, on store: any PersistentStore) async throws {
        let request = try Todo.byTitleWithCategories()
        let fetched = try await store.fetch(request)
        let expected = Self.categoryNames(of: Todo.linkedSample().todos)
        try expect(
            Self.categoryNames(of: fetched) == expected,
            "prefetched categories \(Self.categoryNames(of: fetched)), the sample links \(expected)")
        var unprefetched = request
        unprefetched.relationshipKeyPathsForPrefetching = []
        let plain = try await store.fetch(unprefetched)
        try expect(plain.allSatisfy { $0.category == nil }, "a fetch without prefetching loaded categories")
        try expect(
            plain.map { $0.attributeValues() } == fetched.map { $0.attributeValues() },
            "prefetching changed the todos' values (their foreign keys among them)")
    }

    func checkLivePrefetching<Todo: ConformanceTodo>(_: Todo.Type, on store: any PersistentStore) async throws {
        let controller = ResultsController(store: store, request: try Todo.openByTitleWithCategories())
        let recorder = ResultsRecorder<Todo>()
        controller.delegate = recorder
        try await controller.performFetch()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        // A rename updates exactly the open todos of that category, in one batch.
        let inWork = controller.fetchedObjects.filter { $0.category?.id == 1 }.count
        try expect(inWork > 0, "no open todo in category 1")
        let before = recorder.updates.count
        _ = try await store.write { tx in _ = try tx.update("Category", key: 1, set: ["name": "Office"]) }
        await controller.sync()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        let renamed = recorder.updates.dropFirst(before).compactMap(\.changeset)
        try expect(
            renamed.map(\.rowUpdates.count).reduce(0, +) == inWork
                && renamed.allSatisfy { $0.rowInserts.isEmpty && $0.rowDeletes.isEmpty && $0.rowMoves.isEmpty },
            "renaming a category with \(inWork) open todos gave \(renamed)")
        let writes: [@Sendable (any WriteTransaction) throws -> Void] = [
            { tx in _ = try tx.update("Todo", key: 4, set: ["categoryID": 1]) },
            { tx in _ = try tx.update("Todo", key: 3, set: ["categoryID": .null]) },
            { tx in _ = try tx.update("Category", key: 2, set: ["name": "House"]) },
            { tx in _ = try tx.delete("Category", key: 2) },
            { tx in
                let key = try tx.insert(["name": "Errands", "position": 9], into: "Category")
                _ = try tx.update("Todo", key: 4, set: ["categoryID": key])
            }
        ]
        for write in writes {
            _ = try await store.write(write)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        try recorder.checkCallbackOrder()
        for update in recorder.updates { try ResultsOracle.check(update) }
        try expect(
            controller.fetchedObjects.first { $0.id == 4 }?.category?.name == "Errands",
            "todo 4's category is \(String(describing: controller.fetchedObjects.first { $0.id == 4 }?.category))")
    }
}
