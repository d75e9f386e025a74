import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKitPostgres

/// On a real server, both feeds report the categories changed todos pointed at (``TableChange/references``), and a
/// controller reading `todos` from Category re-evaluates just those; where the log does not carry old rows (the
/// default replica identity) it refetches instead, and stays exact either way.
@Suite("PostgreSQL: to-many relationships localised", .requiresPostgreSQL)
struct PostgresReferenceTests {
    static let openCategories = FetchRequest(
        entity: "Category",
        predicate: .comparison(.init(.key("todos.done"), .equal, .value(false), quantifier: .any)),
        sortDescriptors: [.ascending("name")])

    /// Moves todo 3 to Work, finishes Home's open todo, deletes Errands' last open todo, and checks the controller
    /// against a fresh fetch after each write; returns how the controller applied those three writes (the sample
    /// data's change, which the logical feed may deliver after the first fetch, is not counted).
    static func followsTodos(on store: PostgresStore) async throws -> (incremental: Int, refetched: Int) {
        let controller = ResultsController(store: store, request: openCategories)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        await controller.sync()
        let before = controller.statistics
        let writes: [@Sendable (any WriteTransaction) throws -> Void] = [
            { tx in _ = try tx.update("Todo", key: 3, set: ["categoryID": 1]) },
            { tx in _ = try tx.update("Todo", key: 5, set: ["done": true]) },
            { tx in _ = try tx.delete("Todo", key: 4) }
        ]
        for write in writes {
            try await store.write(write)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        #expect(controller.fetchedObjects.compactMap { $0["id", as: Int64.self] } == [1])
        let after = controller.statistics
        return (after.incrementalUpdates - before.incrementalUpdates, after.fullRefreshes - before.fullRefreshes)
    }

    @Test func theTriggerFeedReportsReferencesAndControllersApplyThem() async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        // The sample data's change is published before the collector subscribes: it sees the next write's only.
        await store.waitForPublication()
        let collector = PostgresChangeCaptureTests.Collector(store)
        try await store.write { tx in
            _ = try tx.update("Todo", key: 3, set: ["categoryID": 1])
            _ = try tx.update("Todo", key: 8, set: ["title": "still in no category"])
        }
        let changes = try await collector.wait(for: 1)
        #expect(changes[0].tables["todo"]?.references == ["categoryID": [.integer(1), .integer(3)]])
        let applied = try await Self.followsTodos(on: store)
        #expect(applied.incremental == 3 && applied.refetched == 0, "\(applied)")
        await store.close()
    }

    @Test func theLogicalFeedWithoutOldRowsRefetchesAndStaysExact() async throws {
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, options: LogicalFeedTests.logicalOptions())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let applied = try await Self.followsTodos(on: store)
        // Each write updated or deleted a todo: its old category is unknown, so every write refetched.
        #expect(applied.incremental == 0 && applied.refetched == 3, "\(applied)")
        await store.close()
    }
}
