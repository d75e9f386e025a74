/// The delegate's view as state: what it shows, the batches on their way to its executor, and the moves its
/// UI made that are not written yet.
///
/// A batch is published under the controller's lock and delivered later on the delegate's executor, where the
/// UI may have moved a row in between. So delivery is two events: ``Event/published(_:)`` moves the results
/// and says whether the delegate gets a batch; ``Event/delegateDelivery(_:replay:)``, on the executor, builds
/// that batch from what the delegate shows *then* to the batch's results with its waiting moves made again.
extension ControllerMachine {
    mutating func published(_ publication: Publication) -> [Action] {
        let view = delegateView
        let toDelegate = hasDelegate && (publication.hasChanges || publication.reconcile)
        if toDelegate {
            // Until the delivery runs, the delegate shows what it shows.
            delegateShown = view
        } else {
            // No batch for the delegate: it is in step if it showed this batch's previous results and has no
            // move waiting.
            let inStep = (view.isIdentical(to: publication.previous) || !hasDelegate) && delegateMoves.isEmpty
            delegateShown = inStep ? nil : view
        }
        // Readers that subscribed before the first results receive these results instead of a batch.
        let initial = audience.awaitingInitial
        if !initial.isEmpty { audience.awaitingInitial = [] }
        return [.publish(covering: advance(to: publication), toDelegate: toDelegate, initial: initial)]
    }

    /// New results whose batch the delegate receives at once, on the publishing task, as it is: when the
    /// delegate shows `publication.previous` — in step with the results, no batch on its way, no waiting move —
    /// delivering is ``published(_:)`` and ``delegateDelivery(_:replay:)`` in one step, and the delegate stays in
    /// step. A follower of a shared request takes this path thousands of times per write.
    ///
    /// A follower's results are then at the group's batch `sharedVersion` (one step, not a further event: this is
    /// the path a follower takes for each of the leader's batches).
    ///
    /// - Returns: whether the delegate gets the batch, and the transactions it covers; `nil`, changing nothing,
    ///   when the delegate is not in step (take the two events then).
    mutating func publishedInStep(_ publication: Publication, sharedVersion: UInt64? = nil) -> InStepDelivery? {
        guard hasDelegate, !hasFailed, delegateShown == nil, delegateMoves.isEmpty,
            results.isIdentical(to: publication.previous)
        else { return nil }
        if let sharedVersion { sharing.adopt(version: sharedVersion) }
        let covered = advance(to: publication)
        return InStepDelivery(toDelegate: publication.hasChanges || publication.reconcile, covering: covered)
    }

    /// Moves the results to `publication`'s and returns the transactions its batch covers: from the one after
    /// the last batch through the publication's (none for a batch without changes or a local change).
    private mutating func advance(to publication: Publication) -> ClosedRange<UInt64>? {
        results = publication.snapshot
        hasFetched = true
        var covered: ClosedRange<UInt64>?
        if let transactionID = publication.transactionID {
            if publication.hasChanges {
                covered = min(lastBatchThrough + 1, transactionID)...transactionID
                lastBatchThrough = max(lastBatchThrough, transactionID)
            }
            appliedThrough = max(appliedThrough, transactionID)
        }
        return covered
    }

    /// Records that the changes through `transactionID` are applied, even without a batch (not while the
    /// controller is stale or stopped: it applied nothing then).
    mutating func markApplied(through transactionID: UInt64) {
        guard !isStale, !hasFailed else { return }
        appliedThrough = max(appliedThrough, transactionID)
    }

    /// A delegate was set (it starts from the current results) or removed.
    mutating func delegateSet(
        _ delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?, actor: (any Actor)?
    ) -> [Action] {
        audience.delegate = delegate
        audience.delegateActor = delegate == nil ? nil : actor
        hasDelegate = delegate != nil
        delegateShown = nil
        return []
    }

    /// A new update reader starts from the current results — once there are any — or ends at once when the
    /// controller has stopped.
    mutating func updatesSubscribed(_ buffer: UpdateBuffer<Object>, id: Int) -> [Action] {
        if let error = lifecycle.failure { return [.endReader(buffer, error)] }
        audience.subscribers = (audience.subscribers ?? UpdateSubscribers()).adding(buffer, id: id)
        guard hasFetched else {
            audience.awaitingInitial.insert(id)
            return []
        }
        return [
            .startReader(buffer, ResultsBatch(previous: results, snapshot: results, changeset: nil, transactionID: nil))
        ]
    }

    /// The batch the delegate receives for `update`: from what it shows now to `update`'s results with its
    /// waiting moves made again — nothing when those are equal.
    mutating func delegateDelivery(_ update: ResultsBatch<Object>, replay: Replay?) -> [Action] {
        let shown = delegateShown
        let target: ResultsSnapshot<Object>
        var unplaced: Set<Value> = []
        if delegateMoves.isEmpty {
            target = update.snapshot
            // In step (nil) when no later batch was published meanwhile.
            delegateShown = results.isIdentical(to: update.snapshot) ? nil : update.snapshot
        } else {
            guard let replay else {
                return reportingStatus { $0.stop(.inconsistency("the delegate's waiting moves came without a replay")) }
            }
            let moved = replay(update.snapshot, delegateMoves, shown ?? update.previous)
            (target, unplaced) = (moved.snapshot, moved.unplaced)
            delegateShown = target
        }
        guard hasDelegate, !hasFailed else { return [] }
        do {
            // The rows of moves that no longer apply go back; the rows around them stay.
            guard let batch = try update.rebased(from: shown, to: target, movingFirst: unplaced) else { return [] }
            return [.notifyDelegate(batch, audience.delegate)]
        } catch {
            return reportingStatus { $0.stop(.inconsistency("a batch for the delegate could not be built: \(error)")) }
        }
    }

    /// The UI moved a row: from now on the delegate shows `shown`, and the move waits to be written — unless
    /// what the delegate shows changed since the move was planned from `base`.
    mutating func userMoved(
        base: ResultsSnapshot<Object>, shown: ResultsSnapshot<Object>, key: Value, destination: MoveDestination
    ) -> [Action] {
        guard delegateView.isIdentical(to: base) else { return [.replanMove] }
        delegateShown = shown
        let id = delegateMoves.add(key: key, destination: destination)
        return [.writeMove(id: id, key: key, destination: destination)]
    }

    mutating func moveShown(current: ResultsSnapshot<Object>, shown: ResultsSnapshot<Object>) -> [Action] {
        if delegateView.isIdentical(to: current) { delegateShown = shown }
        return []
    }
}
