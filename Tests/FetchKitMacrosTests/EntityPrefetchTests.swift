import FetchKitMacros
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// Prefetched to-one relationships: fetched records carry their related records, and a live controller's
/// records follow the related rows as they change.
@Suite("@Entity records with prefetched relationships")
struct EntityPrefetchTests {
    private func store() async throws -> (SQLiteStore, work: Category, home: Category) {
        let store = try await SQLiteStore.inMemory(schema: try Schema([Category.entity, Todo.entity, Tag.entity]))
        let (work, home) = try await store.write { tx in
            (try tx.insert(Category(name: "Work")), try tx.insert(Category(name: "Home")))
        }
        _ = try await store.write { tx in
            for (index, category) in [work, home, nil, work].enumerated() {
                var todo = EntityStoreTests.sample(category: category)
                todo.title = "todo \(index)"
                todo.position = Double(index)
                try tx.insert(todo)
            }
        }
        return (store, work, home)
    }

    @Test("a fetch sets each record's related record; a record without one keeps nil")
    func fetch() async throws {
        let (store, work, _) = try await store()
        let plain = try FetchRequest<Todo>(sortBy: [SortDescriptor(\.position)])
        let prefetched = try plain.prefetching(\.category)
        #expect(prefetched.relationshipKeyPathsForPrefetching == ["category"])
        let todos = try await store.fetch(prefetched)
        #expect(todos.map { $0.category?.name } == ["Work", "Home", nil, "Work"])
        #expect(todos[0].category == work)
        // Without prefetching the related record is not loaded, but the foreign key stays: writing the record
        // back keeps its category.
        var bare = try await store.fetch(plain)
        #expect(bare.allSatisfy { $0.category == nil })
        bare[0].title = "renamed"
        let written = bare[0]
        try await store.write { tx in try tx.update(written) }
        #expect(try await store.fetch(prefetched)[0].category?.name == "Work")
        // Rows of a dynamic request carry the related attributes as columns named by key path.
        var rows = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("position")])
        rows.relationshipKeyPathsForPrefetching = ["category"]
        let fetchedRows = try await store.fetch(rows)
        #expect(fetchedRows.map { $0["category.name"] } == [.text("Work"), .text("Home"), .null, .text("Work")])
        await store.close()
    }

    @Test("a key path that is not a to-one relationship is refused, naming it")
    func refused() async throws {
        let request = try FetchRequest<Todo>(sortBy: [SortDescriptor(\.position)])
        let error = try #require(throws: FetchKitError.self) { try request.prefetching(\.title) }
        #expect(error.code == .unknownKey)
        #expect(error.message.contains("title"))
        let (store, _, _) = try await store()
        var toMany = FetchRequest(entity: "Category")
        toMany.relationshipKeyPathsForPrefetching = ["todos"]
        let manyError = await #expect(throws: FetchKitError.self) { try await store.fetch(toMany) }
        #expect(manyError?.message.contains("to-many") == true)
        var unknown = FetchRequest(entity: "Todo")
        unknown.relationshipKeyPathsForPrefetching = ["owner"]
        let unknownError = await #expect(throws: FetchKitError.self) { try await store.fetch(unknown) }
        #expect(unknownError?.code == .unknownKey)
        await store.close()
    }

    @Test("a live controller's prefetched records follow renames, reassignments and deletions of related rows")
    func live() async throws {
        let (store, work, home) = try await store()
        let controller = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(predicate: #Predicate { !$0.done }, sortBy: [SortDescriptor(\.position)])
                .prefetching(\.category))
        let recorder = ResultsRecorder<Todo>()
        controller.delegate = recorder
        try await controller.performFetch()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        let workID = try #require(work.id)
        let homeID = try #require(home.id)
        let writes: [(String, @Sendable (any WriteTransaction) throws -> Void)] = [
            ("rename Work", { tx in _ = try tx.update("Category", key: .integer(workID), set: ["name": "Office"]) }),
            (
                "move todo 2 to Home",
                { tx in
                    _ = try tx.update("Todo", where: .key("title") == "todo 2", set: ["categoryID": .integer(homeID)])
                }
            ),
            ("rename Home", { tx in _ = try tx.update("Category", key: .integer(homeID), set: ["name": "House"]) }),
            (
                "detach and delete Home",
                { tx in
                    _ = try tx.update("Todo", where: .key("categoryID") == homeID, set: ["categoryID": .null])
                    try tx.delete("Category", key: .integer(homeID))
                }
            ),
            ("a new category", { tx in _ = try tx.insert(Category(name: "Errands")) })
        ]
        for (name, write) in writes {
            let before = recorder.updates.count
            _ = try await store.write(write)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            if name == "rename Work" {
                // Both todos in Work are updated, and nothing else.
                let batch = try #require(recorder.updates.last)
                #expect(recorder.updates.count == before + 1)
                #expect(batch.changeset?.rowUpdates.count == 2)
                #expect(batch.changeset?.rowInserts.isEmpty == true && batch.changeset?.rowDeletes.isEmpty == true)
            }
        }
        for update in recorder.updates { try ResultsOracle.check(update) }
        #expect(controller.fetchedObjects.map { $0.category?.name } == ["Office", nil, nil, "Office"])
        await store.close()
    }
}
