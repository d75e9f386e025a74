@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Testing

/// ``InMemoryStore`` itself: what a failed write leaves, what its change feed publishes, how it orders NULLs
/// and ties, and that it refuses SQL.
@Suite("InMemoryStore")
struct InMemoryStoreTests {
    typealias Todo = Fixtures.TodoRecord
    typealias Category = Fixtures.CategoryRecord

    func seeded() async throws -> InMemoryStore {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        return store
    }

    func titles(_ store: InMemoryStore, _ request: FetchRequest<Row>) async throws -> [Value] {
        try await store.fetch(request).map { $0["title"] ?? .null }
    }

    @Test func failedWriteLosesNothingAndPublishesNothing() async throws {
        let store = try await seeded()
        let before = try await store.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        let lastID = store.lastTransactionID
        let changes = store.changes()
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                try tx.insert(Todo(title: "new"))
                try tx.update("Todo", where: .true, set: ["done": true])
                try tx.delete("Category", key: 1)
                try tx.insert(Todo(id: 1, title: "a duplicate key"))
            }
        }
        // A caught error inside a write leaves nothing of the failed call; the rest commits.
        let kept = try await store.write { tx in
            #expect(throws: FetchKitError.self) { try tx.insert(Todo(title: "orphan", categoryID: 42)) }
            return try tx.insert(Todo(title: "kept")).id
        }
        let after = try await store.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        #expect(Array(after.dropLast()) == before)
        #expect(after.last?["title"] == "kept")
        #expect(store.lastTransactionID == lastID + 1)
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.transactionID == lastID + 1)
        #expect(
            change.tables == [
                "todo": TableChange(inserted: [Value.integer(try #require(kept))], references: ["categoryID": []])
            ])
        await store.close()
    }

    @Test func changeFeedPublishesOneChangePerTransaction() async throws {
        let store = try await seeded()
        let changes = store.changes()
        try await store.write { tx in
            try tx.insert(Category(id: 9, name: "New"))
            _ = try tx.update("Todo", key: 2, set: ["categoryID": 9])
            _ = try tx.delete("Todo", key: 3)
        }
        // Deleting a category sets its todos' foreign keys to NULL: those todos are updated.
        try await store.write { tx in _ = try tx.delete("Category", key: 9) }
        // A write that changes nothing publishes nothing.
        try await store.write { tx in _ = try tx.delete("Todo", where: .false) }
        await store.close()
        var received: [StoreChange] = []
        for await change in changes { received.append(change) }
        #expect(received.map(\.transactionID) == [2, 3])
        #expect(
            received.first?.tables == [
                "category": TableChange(inserted: [9]),
                // The categories the changed todos pointed at, before and after.
                "todo": TableChange(updated: [2], deleted: [3], references: ["categoryID": [1, 3, 9]])
            ])
        #expect(
            received.last?.tables == [
                "category": TableChange(deleted: [9]),
                "todo": TableChange(updated: [2], references: ["categoryID": [9]])
            ])
        #expect(received.allSatisfy { !$0.isResync })
    }

    @Test func ordersNullsFirstAscendingAndTiesByKey() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in
            for (title, ordering) in [("d", 2.0), ("b", nil), ("c", 1.0), ("a", nil), ("e", 1.0)] as [(String, Double?)]
            {
                try tx.insert(Todo(title: title, ordering: ordering))
            }
        }
        let ascending = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("ordering")])
        #expect(try await titles(store, ascending) == ["b", "a", "c", "e", "d"])
        let descending = FetchRequest(entity: "Todo", sortDescriptors: [.descending("ordering")])
        #expect(try await titles(store, descending) == ["d", "c", "e", "b", "a"])
        var window = ascending
        window.fetchOffset = 1
        window.fetchLimit = 3
        #expect(try await titles(store, window) == ["a", "c", "e"])
        #expect(try await store.count(window) == 3)
        await store.close()
    }

    @Test func runsNoSQL() async throws {
        let store = try await seeded()
        #expect(!store.dialect.runsSQL)
        do {
            try await store.write { tx in _ = try tx.execute("DELETE FROM todo", []) }
            Issue.record("raw SQL ran")
        } catch let error as FetchKitError {
            #expect(error.code == .unsupported)
        }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 10)
        await store.close()
        await #expect(throws: FetchKitError.closed) { try await store.count(FetchRequest(entity: "Todo")) }
    }

    @Test func opensByURL() async throws {
        let registry: StoreRegistry = [InMemoryStore.self]
        let store = try await registry.open(StoreConfiguration(url: "memory:"), schema: Fixtures.schema)
        #expect(store is InMemoryStore)
        await store.close()
    }
}
