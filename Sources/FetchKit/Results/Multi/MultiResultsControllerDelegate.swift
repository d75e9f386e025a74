/// Receives a ``MultiResultsController``'s batches — live changes and transitions between its named
/// requests alike — with the multi-controller as the sender, in the order of the batch contract (see
/// ``ResultsControllerDelegate``). Every method has an empty default implementation.
public protocol MultiResultsControllerDelegate<Object>: AnyObject, Sendable {
    /// The controller's object type (`Row` or a `Record`).
    associatedtype Object: Sendable

    /// A batch begins.
    func controllerWillChangeContent(_ controller: MultiResultsController<Object>)
    /// A section was inserted (new index), deleted (old index) or moved (both).
    func controller(
        _ controller: MultiResultsController<Object>, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?)
    /// A row was inserted, deleted, moved or updated (see ``ResultsControllerDelegate``).
    func controller(
        _ controller: MultiResultsController<Object>, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?)
    /// The batch ended.
    func controllerDidChangeContent(_ controller: MultiResultsController<Object>)
    /// The whole batch, after the individual callbacks.
    func controller(_ controller: MultiResultsController<Object>, didApply update: ResultsUpdate<Object>)
    /// A permanent failure stopped the controller (see ``ResultsControllerDelegate/controller(_:didFailWith:)``).
    func controller(_ controller: MultiResultsController<Object>, didFailWith error: FetchKitError)
}

extension MultiResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: MultiResultsController<Object>) {}
    public func controller(
        _ controller: MultiResultsController<Object>, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {}
    public func controller(
        _ controller: MultiResultsController<Object>, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {}
    public func controllerDidChangeContent(_ controller: MultiResultsController<Object>) {}
    public func controller(_ controller: MultiResultsController<Object>, didApply update: ResultsUpdate<Object>) {}
    public func controller(_ controller: MultiResultsController<Object>, didFailWith error: FetchKitError) {}
}
