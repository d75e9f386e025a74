import Synchronization

/// A reusable delegate: set it as a controller's delegate (a ``ResultsController`` or a
/// ``MultiResultsController``) and receive each batch as one value, instead of writing the four callbacks
/// into every view that shows live results.
///
/// ```swift
/// let recorder = ChangesetRecorder<Todo> { update in
///     socket.send(try JSONEncoder().encode(WireChangeset(update)))   // or apply update.changeset to a view
/// }
/// controller.delegate = recorder   // held weakly: keep the recorder
/// ```
///
/// Batches reach `handler` in commit order, one call per batch, on the controller's task.
public final class ChangesetRecorder<Object: Sendable>: ResultsControllerDelegate, MultiResultsControllerDelegate, Sendable {
    private let handler: @Sendable (ResultsUpdate<Object>) -> Void
    private let recorded = Mutex<[ResultsUpdate<Object>]>([])
    private let keepsBatches: Bool

    /// A recorder that calls `handler` with each batch.
    public init(_ handler: @escaping @Sendable (ResultsUpdate<Object>) -> Void) {
        self.handler = handler
        keepsBatches = false
    }

    /// A recorder that keeps each batch until ``takeBatches()``.
    public init() {
        handler = { _ in }
        keepsBatches = true
    }

    /// The batches kept since the last call, in order (with ``init()``).
    public func takeBatches() -> [ResultsUpdate<Object>] {
        recorded.withLock { batches in
            defer { batches.removeAll() }
            return batches
        }
    }

    private func record(_ update: ResultsUpdate<Object>) {
        if keepsBatches { recorded.withLock { $0.append(update) } }
        handler(update)
    }

    public func controller(_ controller: ResultsController<Object>, didApply update: ResultsUpdate<Object>) {
        record(update)
    }

    public func controller(_ controller: MultiResultsController<Object>, didApply update: ResultsUpdate<Object>) {
        record(update)
    }
}
