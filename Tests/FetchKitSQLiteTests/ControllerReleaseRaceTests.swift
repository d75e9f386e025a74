import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Testing

/// A controller released while the router hands a change past it: the router took the controller's last
/// reference under its lock and released it there, and the controller's deinit, unregistering, took the lock
/// again (a crash: "Recursive call to lock Mutex").
@Suite("Controllers released while changes are routed")
struct ControllerReleaseRaceTests {
    @Test func releasingAControllerDuringRoutingNeverReentersTheRouter() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        for round in 0..<300 {
            // Key-bounded on todo 1: a write to todo 5 concerns it not, and is routed past it.
            var controller: ResultsController<Row>? = ResultsController(
                store: store, request: FetchRequest(entity: "Todo", predicate: .key("id") == 1))
            try await controller?.performFetch()
            let write = Task {
                try await store.write { tx in
                    _ = try tx.update("Todo", key: 5, set: ["priority": .integer(Int64(round))])
                }
            }
            if round.isMultiple(of: 2) { await Task.yield() }
            controller = nil
            try await write.value
        }
        let survivor = ResultsController(
            store: store, request: FetchRequest(entity: "Todo", predicate: .key("id") == 5))
        try await survivor.performFetch()
        try await ResultsOracle.checkMatchesFreshFetch(survivor, in: store)
        #expect(survivor.fetchedObjects.first?["priority"] == .integer(299))
        await store.close()
    }
}
