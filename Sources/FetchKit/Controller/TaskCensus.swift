import Synchronization

/// The unstructured tasks a controller starts for its own work — draining its queue, waiting to retry a
/// refetch, handing a shared request's batches on, emitting a composite's batches — counted while they run.
///
/// A controller's tasks end with it: none keeps it alive once its work is done, and none outlives it (a task
/// that waits holds the controller weakly and is cancelled when it goes). The census lets a check see that:
/// keep a controller's census, release the controller, and its count returns to zero.
package final class TaskCensus: Sendable {
    private let running = Atomic<Int>(0)

    package init() {}

    /// The number of this owner's tasks running now.
    package var count: Int { running.load(ordering: .acquiring) }

    /// Starts `body` as an unstructured task, counted from now until it returns.
    @discardableResult
    func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        running.add(1, ordering: .relaxed)
        return Task {
            defer { running.subtract(1, ordering: .releasing) }
            await body()
        }
    }
}
