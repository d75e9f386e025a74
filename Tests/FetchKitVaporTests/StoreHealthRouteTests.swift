#if Vapor
    import FetchKit
    import FetchKitBackendKit
    import FetchKitFixtures
    import FetchKitInMemory
    import FetchKitVapor
    import Foundation
    import Testing
    import Vapor
    import VaporTesting

    /// `routes.storeHealth` answers an orchestrator's probes: 200 while the store is live or ready, 503 once not,
    /// with the health as JSON.
    @Suite("Vapor: store health routes")
    struct StoreHealthRouteTests {
        @Test func probesFollowTheStore() async throws {
            let store = InMemoryStore(schema: Fixtures.schema)
            let app = try await Application.make(.testing)
            app.storeHealth("health", store: store)
            do {
                try await app.testing().test(.GET, "health/ready") { response in
                    #expect(response.status == .ok)
                    #expect(response.headers.contentType == .json)
                    let health = try JSONDecoder().decode(StoreHealth.self, from: Data(response.body.readableBytesView))
                    #expect(health.isReady && health.checks.count == 3)
                }
                store.changeFeed.publishDelivery(.interrupted(.connectionLost("the feed is reconnecting")))
                try await app.testing().test(.GET, "health/ready") { response in
                    #expect(response.status == .serviceUnavailable)
                }
                try await app.testing().test(.GET, "health/live") { response in
                    #expect(response.status == .ok)
                }
                await store.close()
                try await app.testing().test(.GET, "health/live") { response in
                    #expect(response.status == .serviceUnavailable)
                }
            } catch {
                try await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
        }
    }
#endif
