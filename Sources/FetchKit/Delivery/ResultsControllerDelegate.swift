/// Receives a controller's batches, NSFetchedResultsController-style: one protocol for every controller.
///
/// `Controller` is the sender — a ``ResultsController``, a ``MultiResultsController`` or a
/// ``CompositeResultsController`` — and fixes what the callbacks carry (``DelegatingController``). Implement
/// the methods you need with the sender's concrete type; the others have empty default implementations.
///
/// ```swift
/// final class TableAnimator: ResultsControllerDelegate {
///     func controller(_ controller: ResultsController<Todo>, didChange todo: Todo, at rowPath: RowPath?,
///                     for type: ResultsChangeType, newRowPath: RowPath?) { … }
///     func controllerDidChangeContent(_ controller: ResultsController<Todo>) { … }
/// }
/// controller.delegate = animator
/// ```
///
/// For each committed transaction that changes the results, the controller calls, in this order:
/// ``controllerWillChangeContent(_:)``, one ``controller(_:didChange:atSectionIndex:for:newSectionIndex:)``
/// per section change, one ``controller(_:didChange:at:for:newRowPath:)`` per row change,
/// ``controllerDidChangeContent(_:)``, and finally ``controller(_:didApply:)`` with the whole batch.
/// A controller's ``ResultsController/updates()`` sequence carries the same batches, without a delegate.
///
/// - Important: Callbacks of one controller are serialized and arrive in commit order, on the controller's
///   own task (not the main thread: there is none on a server). When they run, the controller already holds
///   the new results: read in a callback, its accessors (`sections`, `object(at:)`, `fetchedObjects`…) return
///   the batch's results (``ResultsBatch/snapshot``), with the rows the delegate's UI moved that are not
///   written yet. Keep them short: the next batch waits for them.
public protocol ResultsControllerDelegate<Controller>: AnyObject, Sendable {
    /// The controller that sends the batches.
    associatedtype Controller: DelegatingController

    /// A batch begins.
    func controllerWillChangeContent(_ controller: Controller)
    /// A section was inserted (new index), deleted (old index) or moved (both).
    func controller(
        _ controller: Controller, didChange section: Controller.Section, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?)
    /// A row was inserted (`newRowPath`), deleted (`rowPath`), moved or updated (both). `object` is the new
    /// object, except for deletes, where it is the old one.
    func controller(
        _ controller: Controller, didChange object: Controller.Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?)
    /// The batch ended.
    func controllerDidChangeContent(_ controller: Controller)
    /// The whole batch, after the individual callbacks.
    func controller(_ controller: Controller, didApply update: Controller.Update)
    /// A permanent failure stopped the controller (its `status` is now ``ResultsStatus/failed(_:)``): it keeps
    /// its last results and applies no further change until `performFetch()` or `setRequest(_:)` starts it
    /// again. A composite keeps showing the last results of the part that failed.
    ///
    /// Transient failures, which the controller retries on its own, show in its status instead.
    func controller(_ controller: Controller, didFailWith error: FetchKitError)
}

extension ResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: Controller) {}
    public func controller(
        _ controller: Controller, didChange section: Controller.Section, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {}
    public func controller(
        _ controller: Controller, didChange object: Controller.Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {}
    public func controllerDidChangeContent(_ controller: Controller) {}
    public func controller(_ controller: Controller, didApply update: Controller.Update) {}
    public func controller(_ controller: Controller, didFailWith error: FetchKitError) {}
}

extension ResultsControllerDelegate {
    /// Calls the method `callback` stands for, with `controller` as the sender: the one dispatch every
    /// controller uses.
    func receive(
        _ callback: BatchCallback<Controller.Section, Controller.Object, Controller.Update>, from controller: Controller
    ) {
        switch callback {
        case .willChange:
            controllerWillChangeContent(controller)
        case .section(let section, let old, let type, let new):
            self.controller(controller, didChange: section, atSectionIndex: old, for: type, newSectionIndex: new)
        case .row(let object, let old, let type, let new):
            self.controller(controller, didChange: object, at: old, for: type, newRowPath: new)
        case .didChange:
            controllerDidChangeContent(controller)
        case .didApply(let update):
            self.controller(controller, didApply: update)
        }
    }
}
