import ServiceLifecycle

/// What a store does as a swift-service-lifecycle `Service`: wait until graceful shutdown or cancellation, then
/// close — the body of each backend's `run()`.
///
/// ```swift
/// extension MyStore: Service {
///     public func run() async throws { await StoreService.runUntilShutdown { await self.close() } }
/// }
/// ```
public enum StoreService {
    /// Waits until the service group shuts down gracefully (or the task is cancelled), then runs `close`.
    public static func runUntilShutdown(close: () async -> Void) async {
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
