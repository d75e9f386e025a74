/// Calling a delegate's methods for one batch.
extension ResultsController {
    /// Calls `delegate`'s methods for `batch` in contract order: will-change; section deletes, inserts, moves;
    /// row deletes, inserts, moves, updates; did-change; the whole batch.
    ///
    /// The methods are called directly rather than through ``ResultsControllerDelegate/receive(_:from:)``: the
    /// followers of a shared request run this thousands of times per write, and that generic dispatch looks its
    /// callback type up at run time on every call.
    ///
    /// While the callbacks run, the controller's accessors read on their task return `batch`'s results
    /// (``DelegateDeliveryScope``): what the delegate is being shown, with the moves its UI made that are not
    /// written yet. `inStep` says that those are the controller's own results — a follower of shared results
    /// in step (``ControllerMachine/publishedInStep(_:)``), thousands of times per write — and skips the scope.
    ///
    /// - Complexity: O(*c*) for *c* changes when the batch was prepared (``PreparedChanges``);
    ///   otherwise O(*c* + *s*) for *s* sections.
    func notify(
        _ delegate: any ResultsControllerDelegate<ResultsController<Object>>, of batch: ResultsBatch<Object>,
        inStep: Bool = false
    ) {
        guard batch.hasChangeset else { return }
        if inStep {
            notifyOpened(delegate, of: batch)
        } else {
            DelegateDeliveryScope.delivering(batch.erased, of: self) { notifyOpened(delegate, of: batch) }
        }
    }

    /// ``notify(_:of:)`` with the delegate's type opened once, not at each call.
    private func notifyOpened<Delegate: ResultsControllerDelegate<ResultsController<Object>>>(
        _ delegate: Delegate, of batch: ResultsBatch<Object>
    ) {
        delegate.controllerWillChangeContent(self)
        if let prepared = batch.preparedChanges {
            for (index, change) in prepared.sectionChanges.enumerated() {
                delegate.controller(
                    self, didChange: prepared.sections[index], atSectionIndex: change.old, for: change.type,
                    newSectionIndex: change.new)
            }
            for (index, change) in prepared.rowChanges.enumerated() {
                delegate.controller(
                    self, didChange: prepared.objects[index], at: change.old, for: change.type, newRowPath: change.new)
            }
        } else {
            batch.forEachChange { delegate.receive($0, from: self) }
        }
        delegate.controllerDidChangeContent(self)
        delegate.controller(self, didApply: batch)
    }
}
