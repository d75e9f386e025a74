import Synchronization

/// A reusable delegate: set it as any controller's delegate and receive each batch as one value, instead of
/// writing the callbacks into every view that shows live results.
///
/// ```swift
/// let recorder = ChangesetRecorder<ResultsController<Todo>> { update in
///     socket.send(try JSONEncoder().encode(WireChangeset(update)))   // or apply update.changeset to a view
/// }
/// controller.delegate = recorder   // held weakly: keep the recorder
/// ```
///
/// `Controller` is the sender: a ``ResultsController`` or a ``MultiResultsController`` (batches are
/// ``ResultsBatch``s), or a ``CompositeResultsController`` (``CompositeBatch``s). Batches reach `handler`
/// in commit order, one call per batch, on the controller's task.
public final class ChangesetRecorder<Controller: DelegatingController>: ResultsControllerDelegate, Sendable {
    private let handler: @Sendable (Controller.Update) -> Void
    private let recorded = Mutex<[Controller.Update]>([])
    private let keepsBatches: Bool

    /// A recorder that calls `handler` with each batch.
    public init(_ handler: @escaping @Sendable (Controller.Update) -> Void) {
        self.handler = handler
        keepsBatches = false
    }

    /// A recorder that keeps each batch until ``takeBatches()``.
    public init() {
        handler = { _ in }
        keepsBatches = true
    }

    /// The batches kept since the last call, in order (with ``init()``).
    public func takeBatches() -> [Controller.Update] {
        recorded.withLock { batches in
            defer { batches.removeAll() }
            return batches
        }
    }

    public func controller(_ controller: Controller, didApply update: Controller.Update) {
        if keepsBatches { recorded.withLock { $0.append(update) } }
        handler(update)
    }
}
