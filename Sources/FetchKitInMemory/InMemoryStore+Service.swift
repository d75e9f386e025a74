import FetchKitBackendKit
import ServiceLifecycle

/// Like every bundled store, an in-memory store runs as a swift-service-lifecycle `Service`, so a test can run an
/// app's service group as production does: on graceful shutdown it closes after the services listed after it.
extension InMemoryStore: Service {
    /// Waits until graceful shutdown or cancellation, then closes the store.
    public func run() async throws {
        await StoreService.runUntilShutdown { await close() }
    }
}
