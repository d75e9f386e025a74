import FetchKitMacros
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// Typed requests over macro-declared records: key paths through the generated map (relationships included),
/// fetches, and a live controller checked by the oracle.
@Suite("@Entity records in typed requests")
struct EntityRequestTests {
    @Test("key paths, through to-one relationships too, name the attributes the format strings name")
    func keyPaths() throws {
        let open = Status.open
        let request = try FetchRequest<Todo>(
            predicate: #Predicate { $0.category?.name == "Work" && $0.status == open },
            sortBy: [SortDescriptor(\.position, order: .reverse), SortDescriptor(\.title)],
            sectionBy: \.category?.name)
        #expect(request.sectionNameKeyPath == "category.name")
        #expect(request.sortDescriptors == [.descending("position"), .ascending("title")])
        #expect(request.predicate == (try FetchPredicate(format: "category.name == 'Work' AND status == 'open'")))
        #expect(Todo.storedPath(for: \Todo.category?.id) == "category.id")
        #expect(Todo.storedPath(for: \Todo.scratch) == nil)
        let categories = try FetchRequest<Category>(predicate: #Predicate { $0.todos.contains { $0.done } })
        #expect(
            categories.predicate == (try FetchPredicate(format: "SUBQUERY(todos, $e1, $e1.done == YES).@count > 0")))
    }

    @Test("a controller of macro records over a relationship predicate stays exact through writes on both sides")
    func liveController() async throws {
        let store = try await SQLiteStore.inMemory(schema: try Schema([Category.entity, Todo.entity, Tag.entity]))
        let (work, home) = try await store.write { tx in
            (try tx.insert(Category(name: "Work")), try tx.insert(Category(name: "Home")))
        }
        _ = try await store.write { tx in
            for index in 0..<6 {
                var todo = EntityStoreTests.sample(category: index.isMultiple(of: 2) ? work : home)
                todo.title = "todo \(index)"
                todo.position = Double(index)
                try tx.insert(todo)
            }
        }
        let controller = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(
                predicate: #Predicate { $0.category?.name == "Work" && !$0.done },
                sortBy: [SortDescriptor(\.position)], sectionBy: \.category?.name))
        let recorder = ResultsRecorder<Todo>()
        controller.delegate = recorder
        try await controller.performFetch()
        #expect(controller.fetchedObjects.map(\.title) == ["todo 0", "todo 2", "todo 4"])
        let writes: [@Sendable (any WriteTransaction) throws -> Void] = [
            { tx in _ = try tx.update("Category", key: .integer(home.id!), set: ["name": "Work"]) },
            { tx in _ = try tx.update("Todo", where: .key("title") == "todo 2", set: ["done": true]) },
            { tx in _ = try tx.update("Category", key: .integer(work.id!), set: ["name": "Office"]) },
            { tx in
                var moved = try tx.fetch(try FetchRequest<Todo>(predicate: #Predicate { $0.title == "todo 4" }))[0]
                moved.category = nil
                try tx.update(moved)
            }
        ]
        for write in writes {
            _ = try await store.write(write)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        for update in recorder.updates { try ResultsOracle.check(update) }
        #expect(controller.fetchedObjects.map(\.title) == ["todo 1", "todo 3", "todo 5"])
        await store.close()
    }
}
