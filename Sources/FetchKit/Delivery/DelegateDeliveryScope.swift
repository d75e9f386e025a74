import Synchronization

/// The batch a controller's delegate is being told about, while its callbacks for that batch run: read in a
/// callback, the controller's accessors (``ResultsController/snapshot``, ``ResultsController/sections``,
/// ``ResultsController/object(at:)``…) return that batch's results.
///
/// They are not always the controller's own results. While the delegate's UI has moved a row that the
/// controller has not written yet (``ResultsController/userMovedRow(from:to:)``), each batch the delegate
/// receives leads to the results with that move made (``PendingMoves``), and the controller's results get the
/// move only once it is written. A table view reads its data source while it applies a batch and must count
/// the rows the batch leads to.
///
/// A task-local value, so that only the code a callback runs reads the batch: another task reading the
/// controller meanwhile reads its results. The scope closes when the callbacks return, so that a task a
/// callback started (it inherits the value) reads the controller's results from then on.
final class DelegateDeliveryScope: Sendable {
    /// The deliveries the current task runs, innermost first.
    @TaskLocal static var current: DelegateDeliveryScope?

    /// The controller whose delegate receives the batch.
    private let controller: ObjectIdentifier
    /// The batch (``ResultsBatch/erased``).
    private let batch: any AnyObject & Sendable
    /// The delivery that was running on this task when this one started: another controller's.
    private let outer: DelegateDeliveryScope?
    private let isOpen = Atomic(true)

    private init(controller: ObjectIdentifier, batch: any AnyObject & Sendable, outer: DelegateDeliveryScope?) {
        self.controller = controller
        self.batch = batch
        self.outer = outer
    }

    /// Runs `callbacks`, the delegate callbacks of `controller` for `batch` (``ResultsBatch/erased``), in the
    /// scope of that batch.
    static func delivering(
        _ batch: any AnyObject & Sendable, of controller: AnyObject, _ callbacks: () -> Void
    ) {
        let scope = DelegateDeliveryScope(controller: ObjectIdentifier(controller), batch: batch, outer: current)
        $current.withValue(scope, operation: callbacks)
        scope.isOpen.store(false, ordering: .releasing)
    }

    /// The batch whose callbacks of `controller`'s delegate the current task runs (``ResultsBatch/erased``);
    /// `nil` outside them.
    static func batch(deliveredBy controller: AnyObject) -> (any AnyObject & Sendable)? {
        guard let innermost = current else { return nil }
        let id = ObjectIdentifier(controller)
        var scope: DelegateDeliveryScope? = innermost
        while let delivery = scope {
            // The innermost delivery of this controller is the one that counts (a task may have inherited an
            // older one, closed since).
            if delivery.controller == id { return delivery.isOpen.load(ordering: .acquiring) ? delivery.batch : nil }
            scope = delivery.outer
        }
        return nil
    }
}
