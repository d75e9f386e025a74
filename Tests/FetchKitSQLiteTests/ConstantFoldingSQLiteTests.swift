import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Testing

/// Folded comparisons of constants fetch and follow live like any predicate.
@Suite("Constant comparisons on SQLite")
struct ConstantFoldingSQLiteTests {
    @Test func foldedPredicatesFetchAndStayLive() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        #expect(
            try await store.count(
                FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "1 BETWEEN {0, 33}"))) == 10)
        #expect(
            try await store.count(FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "YES == NO"))) == 0
        )
        let request = FetchRequest(
            entity: "Todo", predicate: try FetchPredicate(format: "2 > 1 AND priority > 3"),
            sortDescriptors: [.ascending("id")])
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        #expect(controller.fetchedObjects.count == 2)
        try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["priority": 9]) }
        await controller.sync()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        #expect(controller.fetchedObjects.count == 3)
        await store.close()
    }
}
