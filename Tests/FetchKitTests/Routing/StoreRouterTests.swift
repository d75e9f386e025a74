import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Testing

@testable import FetchKit

/// Each store owns the change router of its controllers: one per store, shared by the store's controllers,
/// unsubscribed from the store's feed when the last of them goes and when the store closes, and never keeping
/// the store alive.
@Suite("The change router a store owns")
struct StoreRouterTests {
    let request = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")])

    func seeded() async throws -> InMemoryStore {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        return store
    }

    /// Waits until `condition` holds, for at most 10 s.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test("two stores have two routers; the controllers of one store share one, subscribed once")
    func oneRouterPerStore() async throws {
        let first = try await seeded()
        let second = try await seeded()
        #expect(first.liveRouterID == nil)
        let a = ResultsController(store: first, request: request)
        let b = ResultsController(store: first, request: request)
        let c = ResultsController(store: second, request: request)
        #expect(a.router === b.router)
        #expect(a.router !== c.router)
        #expect(first.liveRouterID == ObjectIdentifier(a.router))
        #expect(second.liveRouterID == ObjectIdentifier(c.router))
        #expect(first.changeFeed.subscriberCount == 1)
        #expect(second.changeFeed.subscriberCount == 1)
        try await a.performFetch()
        try await c.performFetch()
        try await first.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": "first"]) }
        await a.sync()
        #expect(a.fetchedObjects.first?["title"] == "first")
        #expect(c.fetchedObjects.first?["title"] != "first")
        await first.close()
        await second.close()
    }

    @Test("the router goes with the store's last controller, unsubscribed; the next controller gets a new one")
    func goesWithLastController() async throws {
        let store = try await seeded()
        var a: ResultsController<Row>? = ResultsController(store: store, request: request)
        var b: ResultsController<Row>? = ResultsController(store: store, request: request)
        try await a?.performFetch()
        try await b?.performFetch()
        try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": "changed"]) }
        await a?.sync()
        await b?.sync()
        let first = try #require(store.liveRouterID)
        a = nil
        #expect(store.liveRouterID == first)
        #expect(store.changeFeed.subscriberCount == 1)
        b = nil
        #expect(try await eventually { store.liveRouterID == nil })
        #expect(store.changeFeed.subscriberCount == 0)

        let c = ResultsController(store: store, request: request)
        try await c.performFetch()
        #expect(store.liveRouterID == ObjectIdentifier(c.router))
        #expect(store.changeFeed.subscriberCount == 1)
        try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": "again"]) }
        await c.sync()
        #expect(c.fetchedObjects.first?["title"] == "again")
        await store.close()
    }

    @Test("close() ends the router: it leaves the store, unsubscribed, and its controllers wait for nothing")
    func endsOnClose() async throws {
        let store = try await seeded()
        let controller = ResultsController(store: store, request: request)
        try await controller.performFetch()
        let router = controller.router
        await store.close()
        #expect(store.changeFeed.subscriberCount == 0)
        #expect(try await eventually { store.liveRouterID == nil })
        #expect(router.routedThrough == .max)
        await controller.sync()
        // A controller made after close gets a router of its own, which ends at once.
        let late = ResultsController(store: store, request: request)
        #expect(late.router !== router)
        #expect(try await eventually { store.liveRouterID == nil })
        await late.sync()
    }

    /// Holds an object weakly, to see it go.
    final class WeakReference<Object: AnyObject>: @unchecked Sendable {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    @Test("the router does not keep its store alive: both go once the controllers are released")
    func noCycle() async throws {
        let store: WeakReference<InMemoryStore>
        do {
            let strong = try await seeded()
            store = WeakReference(strong)
            let controller = ResultsController(store: strong, request: request)
            try await controller.performFetch()
            try await strong.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": "changed"]) }
            await controller.sync()
        }
        #expect(try await eventually { store.object == nil })
    }
}
