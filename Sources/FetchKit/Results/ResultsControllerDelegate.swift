/// What happened to a section or an object in a batch.
public enum ResultsChangeType: String, Sendable, Hashable, Codable {
    case insert, delete, move, update
}

/// Receives a results controller's batches, NSFetchedResultsController-style.
///
/// For each committed transaction that changes the results, the controller calls, in this order:
/// ``controllerWillChangeContent(_:)``, one ``controller(_:didChange:atSectionIndex:for:newSectionIndex:)``
/// per section change, one ``controller(_:didChange:at:for:newRowPath:)`` per row change,
/// ``controllerDidChangeContent(_:)``, and finally ``controller(_:didApply:)`` with the whole batch.
/// Every method has an empty default implementation.
///
/// - Important: Callbacks of one controller are serialized and arrive in commit order, on the controller's
///   own task (not the main thread: there is none on a server). When they run, the controller already holds
///   the new results. Keep them short: the next batch waits for them.
public protocol ResultsControllerDelegate<Object>: AnyObject, Sendable {
    /// The controller's object type (`Row` or a `Record`).
    associatedtype Object: Sendable

    /// A batch begins.
    func controllerWillChangeContent(_ controller: ResultsController<Object>)
    /// A section was inserted (new index), deleted (old index) or moved (both).
    func controller(
        _ controller: ResultsController<Object>, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?)
    /// A row was inserted (`newRowPath`), deleted (`rowPath`), moved or updated (both). `object` is the new
    /// object, except for deletes, where it is the old one.
    func controller(
        _ controller: ResultsController<Object>, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?)
    /// The batch ended.
    func controllerDidChangeContent(_ controller: ResultsController<Object>)
    /// The whole batch, after the individual callbacks.
    func controller(_ controller: ResultsController<Object>, didApply update: ResultsUpdate<Object>)
    /// A permanent failure stopped the controller (its ``ResultsController/status`` is now
    /// ``ResultsStatus/failed(_:)``): it keeps its last results and applies no further change until
    /// ``ResultsController/performFetch()`` or ``ResultsController/setRequest(_:)`` starts it again.
    ///
    /// Transient failures, which the controller retries on its own, show in its status instead.
    func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError)
}

extension ResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: ResultsController<Object>) {}
    public func controller(
        _ controller: ResultsController<Object>, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {}
    public func controller(
        _ controller: ResultsController<Object>, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {}
    public func controllerDidChangeContent(_ controller: ResultsController<Object>) {}
    public func controller(_ controller: ResultsController<Object>, didApply update: ResultsUpdate<Object>) {}
    public func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError) {}
}
