/// Publishing: the controller moves to new results under its lock, then each view of them — the delegate's
/// and each ``ResultsController/updates(bufferingLimit:)`` sequence's — receives the batch from what *it*
/// shows. A view that moved a row itself (``ResultsController/userMovedRow(from:to:)``) is a step off the
/// controller's own results; its next batch is found by the keyed diff from what it shows.
extension ResultsController {
    /// Moves the controller to `snapshot` (with `update` changing the rest of the state under the same lock),
    /// then sends the batch to the delegate (on its actor, when it has one) and the subscribers.
    ///
    /// `batch` is the same batch already built (a leader's): a follower delivers it with its prepared callbacks,
    /// renamed to the transactions its own batch covers when those differ. `reconcile` delivers even an empty
    /// batch, so that every view a step off the results (after a user move) comes back to them.
    func publish(
        _ snapshot: ResultsSnapshot<Object>, previous: ResultsSnapshot<Object>, changeset: Changeset?,
        transactionID: UInt64?, origin: PublishOrigin = .engine, batch: ResultsUpdate<Object>? = nil,
        reconcile: Bool = false, update: (inout State) -> Void
    ) async {
        // Locals assigned under the lock (not a returned tuple: this runs once per delivery, for thousands
        // of followers of one request, and every tuple type is looked up at run time in generic code).
        var delegate: (any ResultsControllerDelegate<Object>)?
        var delegateActor: (any Actor)?
        var subscribers: UpdateSubscribers<Object>?
        var awaiting: Set<Int> = []
        var forwardTo: SharedResults<Object>?
        var covered: ClosedRange<UInt64>?
        let hasChanges = changeset?.isEmpty == false
        state.withLock { state in
            update(&state)
            if !hasChanges, !reconcile, state.delegateShown.map({ $0.isIdentical(to: previous) }) ?? true {
                // No batch: a delegate that shows the previous results shows these.
                state.delegateShown = snapshot
            }
            state.snapshot = snapshot
            state.hasFetched = true
            if let transactionID {
                if hasChanges {
                    covered = min(state.lastBatchThrough + 1, transactionID)...transactionID
                    state.lastBatchThrough = max(state.lastBatchThrough, transactionID)
                }
                state.appliedThrough = max(state.appliedThrough, transactionID)
            }
            if !state.awaitingInitial.isEmpty {
                awaiting = state.awaitingInitial
                state.awaitingInitial = []
            }
            switch origin {
            case .engine where state.isLeader: forwardTo = state.group
            case .adopted(let version): state.sharedVersion = version
            case .engine, .local: break
            }
            delegate = state.delegate
            delegateActor = state.delegateActor
            subscribers = state.subscribers
        }
        if let group = forwardTo, group.hasFollowers {
            // Every batch, even an empty one. Followers whose results are this batch's previous snapshot apply
            // it as it is; the others (after a local move, a change of leader) diff to its snapshot.
            let shared = ResultsUpdate(
                previous: previous, snapshot: snapshot, changeset: changeset ?? Changeset(
                    sectionCountsBefore: previous.sectionCounts, sectionCountsAfter: snapshot.sectionCounts),
                transactionID: transactionID, transactions: nil, preparingChanges: true)
            let version = group.forward(shared)
            state.withLock { $0.sharedVersion = max($0.sharedVersion ?? 0, version) }
        }
        if let subscribers, !awaiting.isEmpty {
            let initial = ResultsUpdate(previous: snapshot, snapshot: snapshot, changeset: nil, transactionID: nil)
            for id in awaiting { subscribers.yield(initial, to: id) }
        }
        guard hasChanges || reconcile, delegate != nil || subscribers != nil else { return }
        let update = if let batch, batch.transactionID == transactionID { batch.covering(covered) } else {
            ResultsUpdate(
                previous: previous, snapshot: snapshot, changeset: changeset ?? Changeset(
                    sectionCountsBefore: previous.sectionCounts, sectionCountsAfter: snapshot.sectionCounts),
                transactionID: transactionID, transactions: covered)
        }
        if hasChanges { router.metrics.batchesDelivered.increment() }
        if delegate != nil {
            if let delegateActor {
                await Self.run(on: delegateActor) { self.deliverToDelegate(update) }
            } else {
                deliverToDelegate(update)
            }
        }
        if let subscribers, subscribers.yield(update, except: awaiting) > 0 {
            state.withLock { $0.coalescedDeliveries += 1 }
            router.metrics.coalescedDeliveries.increment()
        }
    }

    /// Runs `body` on `actor`.
    private static func run(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
        body()
    }

    /// Sends `update` to the delegate, from what the delegate shows: as it is when the delegate shows its
    /// previous results, else the batch from what it shows (it moved a row itself meanwhile).
    func deliverToDelegate(_ update: ResultsUpdate<Object>) {
        var delegate: (any ResultsControllerDelegate<Object>)?
        var shown: ResultsSnapshot<Object>?
        state.withLock { state in
            delegate = state.delegate
            shown = state.delegateShown
            state.delegateShown = update.snapshot
        }
        guard let delegate else { return }
        var batch = update
        if let shown, !shown.isIdentical(to: update.previous) {
            // Both sides are results the controller published (or a user move of them): the diff cannot fail.
            guard let changeset = try? ResultsDiff.changeset(from: shown, to: update.snapshot) else { return }
            batch = ResultsUpdate(
                previous: shown, snapshot: update.snapshot, changeset: changeset, transactionID: update.transactionID,
                transactions: update.transactions)
        }
        guard batch.changeset?.isEmpty == false else { return }
        notify(delegate, of: batch)
    }

    /// Calls the delegate's methods for one batch, in contract order.
    private func notify(_ delegate: any ResultsControllerDelegate<Object>, of update: ResultsUpdate<Object>) {
        update.forEachCallback { callback in
            switch callback {
            case .willChange: delegate.controllerWillChangeContent(self)
            case .section(let section, let old, let type, let new):
                delegate.controller(self, didChange: section, atSectionIndex: old, for: type, newSectionIndex: new)
            case .row(let object, let old, let type, let new):
                delegate.controller(self, didChange: object, at: old, for: type, newRowPath: new)
            case .didChange: delegate.controllerDidChangeContent(self)
            case .didApply(let update): delegate.controller(self, didApply: update)
            }
        }
    }
}
