import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTesting
import Logging
import ServiceLifecycle
import Testing

/// A store in a swift-service-lifecycle ServiceGroup: listening while the group runs, closed on graceful
/// shutdown.
@Suite("PostgreSQL store as a Service", .requiresPostgreSQL)
struct PostgresServiceTests {
    @Test func runsInAServiceGroupAndClosesOnGracefulShutdown() async throws {
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema)
        let group = ServiceGroup(configuration: .init(services: [store], logger: Logger(label: "fetchkit.test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await store.write { tx in try Fixtures.insertSampleData(tx) }
            #expect(store.listenerStatus == .listening)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(store.listenerStatus == .stopped)
        await #expect(throws: FetchKitError.closed) { try await store.fetch(FetchRequest(entity: "Todo")) }
    }
}
