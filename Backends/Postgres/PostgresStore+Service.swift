import FetchKit
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
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                for await _ in stopped {}
            } onCancel: {
                stop.finish()
            }
        } onGracefulShutdown: {
            stop.finish()
        }
        await close()
    }
}
