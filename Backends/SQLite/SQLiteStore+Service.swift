import FetchKit
import FetchKitBackendKit
import ServiceLifecycle

/// A store runs as a swift-service-lifecycle `Service`: add it to the app's `ServiceGroup` before the server, and
/// on graceful shutdown the server stops first, then the store closes — queued writes finish, every live
/// controller ends, the database file is closed.
///
/// ```swift
/// let store = try await SQLiteStore.open(path: "app.sqlite", schema: schema)
/// let group = ServiceGroup(services: [store, app], logger: logger)
/// try await group.run()
/// ```
extension SQLiteStore: Service {
    /// Waits until graceful shutdown or cancellation, then closes the store.
    public func run() async throws {
        await StoreService.runUntilShutdown { await close() }
    }
}
