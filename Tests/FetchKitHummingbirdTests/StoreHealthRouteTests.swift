#if Hummingbird
    import FetchKit
    import FetchKitBackendKit
    import FetchKitFixtures
    import FetchKitHummingbird
    import FetchKitInMemory
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing

    /// `router.storeHealth` answers an orchestrator's probes: 200 while the store is live or ready, 503 once not,
    /// with the health as JSON.
    @Suite("Hummingbird: store health routes")
    struct StoreHealthRouteTests {
        @Test func probesFollowTheStore() async throws {
            let store = InMemoryStore(schema: Fixtures.schema)
            let router = Router()
            router.storeHealth("/health", store: store)
            let app = Application(router: router)
            try await app.test(.router) { client in
                try await client.execute(uri: "/health/ready", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json")
                    let health = try JSONDecoder().decode(
                        StoreHealth.self, from: Data(String(buffer: response.body).utf8))
                    #expect(health.isReady && health.checks.count == 3)
                }
                store.changeFeed.publishDelivery(.interrupted(.connectionLost("the feed is reconnecting")))
                try await client.execute(uri: "/health/ready", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                }
                try await client.execute(uri: "/health/live", method: .get) { response in
                    #expect(response.status == .ok)
                }
                await store.close()
                try await client.execute(uri: "/health/live", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body).contains(#""live":false"#))
                }
            }
        }
    }
#endif
