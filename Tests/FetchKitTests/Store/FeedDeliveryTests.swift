import FetchKit
import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Testing

/// A feed's delivery reports reach every controller of the store: an interruption at once, the return to streaming
/// once the resync before it is applied, and an interruption that began before the store's first controller.
@Suite("Feed delivery")
struct FeedDeliveryTests {
    static let request = FetchRequest<Row>(entity: "Todo", sortDescriptors: [.ascending("id")])
    static let blind = FetchKitError.connectionLost("the feed is reconnecting")

    /// Waits (up to 10 s) until `condition` holds: this store's router reads its feed on a task of its own.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        return condition()
    }

    func seeded() async throws -> InMemoryStore {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        return store
    }

    @Test func anInterruptionLeavesLiveAtOnceAndTheResyncBringsItBack() async throws {
        let store = try await seeded()
        let controller = ResultsController(store: store, request: Self.request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        #expect(controller.status == .live)
        store.changeFeed.publishDelivery(.interrupted(Self.blind))
        #expect(try await eventually { controller.status == .resyncing(Self.blind) })
        // Written while blind (the feed publishes it, as a feed that reconnected publishes its resync).
        try await store.write { tx in try tx.insert(Fixtures.TodoRecord(id: 77, title: "while blind")) }
        await controller.sync()
        #expect(controller.status == .resyncing(Self.blind))
        store.changeFeed.publishResync()
        store.changeFeed.publishDelivery(.streaming)
        await controller.sync()
        #expect(controller.status == .live)
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        for batch in recorder.updates { try ResultsOracle.check(batch, primaryKey: "id") }
    }

    @Test func aControllerMadeWhileTheFeedIsInterruptedIsNotLive() async throws {
        let store = try await seeded()
        // Before the store's first controller, so before its change router exists.
        store.changeFeed.publishDelivery(.interrupted(Self.blind))
        let controller = ResultsController(store: store, request: Self.request)
        try await controller.performFetch()
        #expect(try await eventually { controller.status == .resyncing(Self.blind) })
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        store.changeFeed.publishResync()
        store.changeFeed.publishDelivery(.streaming)
        await controller.sync()
        #expect(controller.status == .live)
    }

    @Test func aFeedBehindTheDatabaseIsLag() async throws {
        let store = try await seeded()
        let controller = ResultsController(store: store, request: Self.request)
        try await controller.performFetch()
        store.changeFeed.publishDelivery(.lagging(since: .now - .seconds(2)))
        #expect(try await eventually { controller.lag >= .seconds(2) })
        guard case .catchingUp = controller.status else {
            Issue.record("status \(controller.status) while the feed is 2 s behind")
            return
        }
        store.changeFeed.publishDelivery(.streaming)
        await controller.sync()
        #expect(controller.lag < .seconds(1))
        #expect(controller.status == .live)
    }
}
