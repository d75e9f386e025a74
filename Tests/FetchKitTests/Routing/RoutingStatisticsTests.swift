import FetchKit
import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Testing

/// `statistics.routing` says how the change router finds each controller: by an equality or a range index, by
/// evaluating its predicate on every changed row, or not at all (the database decides).
@Suite("Routing statistics")
struct RoutingStatisticsTests {
    @Test func eachControllerSaysHowItIsRouted() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let cases: [(String, String, ResultsController<Row>.Routing)] = [
            ("Todo", "priority == 3", .equality),
            ("Todo", "priority IN {1, 2}", .equality),
            ("Todo", "ordering BETWEEN {0, 4}", .range),
            ("Todo", "title BEGINSWITH 'W'", .range),
            ("Todo", "priority == 3 OR done == YES", .scan),
            ("Category", "id == 1 AND ANY todos.done == NO", .equality),
            ("Category", "ANY todos.done == NO", .scan)
        ]
        var controllers: [ResultsController<Row>] = []
        for (entity, format, expected) in cases {
            let controller = ResultsController(
                store: store,
                request: FetchRequest(
                    entity: entity, predicate: try FetchPredicate(format: format), sortDescriptors: [.ascending("id")]))
            #expect(controller.statistics.routing == .unrouted)
            try await controller.performFetch()
            #expect(controller.statistics.routing == expected, "\(format)")
            // Explained without a controller, the same.
            #expect(try store.explainRoute(controller.request.erased).routing == expected, "\(format)")
            controllers.append(controller)
        }
        // An offset: the database decides.
        let offset = ResultsController(
            store: store, request: FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")], fetchOffset: 2))
        try await offset.performFetch()
        #expect(offset.statistics.routing == .database)
        let explained = try store.explainRoute(offset.request.erased)
        #expect(explained.routing == .database && !explained.membershipInMemory && explained.indexedBy == nil)
        let indexed = try store.explainRoute(controllers[0].request.erased)
        #expect(indexed.indexedBy == "priority" && indexed.membershipInMemory && indexed.tables == ["todo"])
        // A to-many relationship: the database decides membership, though a scan finds the candidates.
        let toMany = try store.explainRoute(controllers[6].request.erased)
        #expect(toMany.routing == .scan && !toMany.membershipInMemory && toMany.tables == ["category", "todo"])
        // An equal request shares the first one's results.
        let follower = ResultsController(store: store, request: controllers[0].request)
        try await follower.performFetch()
        #expect(follower.statistics.routing == .follower)
        await store.close()
    }
}
