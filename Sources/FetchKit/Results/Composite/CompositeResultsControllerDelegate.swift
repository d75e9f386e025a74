/// Receives a ``CompositeResultsController``'s batches in global index paths, in the order of the batch
/// contract (see ``ResultsControllerDelegate``). Read objects with
/// ``CompositeResultsController/object(at:in:)``. Every method has an empty default implementation.
public protocol CompositeResultsControllerDelegate: AnyObject, Sendable {
    /// A batch begins.
    func controllerWillChangeContent(_ controller: CompositeResultsController)
    /// A section was inserted (new index), deleted (old index) or moved (both).
    func controller(_ controller: CompositeResultsController, didChangeSection name: String, atSectionIndex: Int?,
                    for type: ResultsChangeType, newSectionIndex: Int?)
    /// A row was inserted (`newRowPath`), deleted (`rowPath`), moved or updated (both).
    func controller(_ controller: CompositeResultsController, didChangeRowAt rowPath: RowPath?, for type: ResultsChangeType,
                    newRowPath: RowPath?)
    /// The batch ended.
    func controllerDidChangeContent(_ controller: CompositeResultsController)
    /// The whole batch, after the individual callbacks.
    func controller(_ controller: CompositeResultsController, didApply update: CompositeUpdate)
    /// A part's controller stopped with a permanent failure (see
    /// ``ResultsControllerDelegate/controller(_:didFailWith:)``); the composite keeps showing its last results.
    func controller(_ controller: CompositeResultsController, didFailWith error: FetchKitError)
}

extension CompositeResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: CompositeResultsController) {}
    public func controller(_ controller: CompositeResultsController, didChangeSection name: String, atSectionIndex: Int?,
                           for type: ResultsChangeType, newSectionIndex: Int?) {}
    public func controller(_ controller: CompositeResultsController, didChangeRowAt rowPath: RowPath?,
                           for type: ResultsChangeType, newRowPath: RowPath?) {}
    public func controllerDidChangeContent(_ controller: CompositeResultsController) {}
    public func controller(_ controller: CompositeResultsController, didApply update: CompositeUpdate) {}
    public func controller(_ controller: CompositeResultsController, didFailWith error: FetchKitError) {}
}
