import FetchKit
import FetchKitBackendKit
import FetchKitFixtures
import FetchKitInMemory
import Foundation
import Testing

/// A store's health follows its feed: ready while it streams and is less than the threshold behind, not ready while
/// it cannot deliver or lags past it, and not live once closed; its JSON never holds an error's text.
@Suite("Store health")
struct StoreHealthTests {
    @Test func readinessFollowsTheFeedAndLivenessTheStore() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        let now = ContinuousClock.now
        let open = store.health(at: now)
        #expect(open.isLive && open.isReady)
        #expect(open.checks.map(\.name) == ["store", "feed", "lag"] && open.checks.allSatisfy(\.passed))

        store.changeFeed.publishDelivery(.lagging(since: now - .seconds(1)))
        #expect(store.health(lagThreshold: .seconds(5), at: now).isReady)
        let behind = store.health(lagThreshold: .seconds(5), at: now + .seconds(10))
        #expect(behind.isLive && !behind.isReady)
        #expect(behind.checks.filter { !$0.passed }.map(\.name) == ["lag"], "\(behind.checks)")
        #expect(behind.checks[2].detail == "11.0 s behind (threshold 5.0 s)")

        store.changeFeed.publishDelivery(
            .interrupted(.connectionLost("could not connect to db.internal:5432 as app")))
        let blind = store.health(at: now)
        #expect(blind.isLive && !blind.isReady)
        #expect(blind.checks.filter { !$0.passed }.map(\.name) == ["feed", "lag"])
        #expect(blind.checks[1].detail == "interrupted (connectionLost)")
        let json = String(decoding: try JSONEncoder().encode(blind), as: UTF8.self)
        #expect(json.contains(#""ready":false"#) && json.contains(#""live":true"#), "\(json)")
        #expect(!json.contains("db.internal"), "the probe's answer holds the error's text: \(json)")

        store.changeFeed.publishDelivery(.streaming)
        #expect(store.health().isReady)
        await store.close()
        let closed = store.health()
        #expect(!closed.isLive && !closed.isReady)
        #expect(closed.checks[0] == StoreHealth.Check(name: "store", passed: false, detail: "closed"))
    }
}
