import FetchKit
import FetchKitBackendKit
import ServiceLifecycle

/// A store runs as a swift-service-lifecycle `Service`: add it to the app's `ServiceGroup` and its change
/// listener lives as long as the group; on graceful shutdown (or cancellation) the store closes — queued work
/// finishes, the listener stops, every connection closes.
///
/// ```swift
/// let store = try await PostgresStore.open(url: url, schema: schema)
/// let group = ServiceGroup(services: [store, httpServer], logger: logger)
/// try await group.run()
/// ```
extension PostgresStore: Service {
    /// Waits until graceful shutdown or cancellation, then closes the store.
    public func run() async throws {
        await StoreService.runUntilShutdown { await close() }
    }
}
