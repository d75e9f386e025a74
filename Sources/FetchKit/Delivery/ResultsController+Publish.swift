/// Publishing: the controller moves to new results under its lock, then each view of them — the delegate's
/// and each ``ResultsController/updates(bufferingLimit:)`` sequence's — receives the batch from what *it*
/// shows. A view that moved a row itself (``ResultsController/userMovedRow(from:to:)``) is a step off the
/// controller's own results until the move is written: its batches lead to the results with its waiting moves
/// applied (``PendingMoves``), found by the keyed diff from what it shows, so it never hears of the dragged row.
extension ResultsController {
    /// Moves the controller to `snapshot` (telling its machine `events` first, built under the same lock),
    /// then sends the batch to the subscribers and the delegate — or, for a delegate bound to an actor, returns
    /// the delivery to run there, which the caller awaits (``DelegateHop/perform()``) before its next change.
    /// Publishing itself never suspends: a server runs it once per follower of a shared request per write.
    ///
    /// `batch` is the same batch already built (a leader's): a follower delivers it with its prepared callbacks,
    /// renamed to the transactions its own batch covers when those differ. `reconcile` delivers even an empty
    /// batch, so that every view a step off the results (after a user move) comes back to them.
    func publish(
        _ snapshot: ResultsSnapshot<Object>, previous: ResultsSnapshot<Object>, changeset: Changeset?,
        transactionID: UInt64?, origin: PublishOrigin = .engine, batch: ResultsBatch<Object>? = nil,
        reconcile: Bool = false, events: @autoclosure () -> [Machine.Event] = []
    ) -> DelegateHop? {
        // Locals assigned under the lock (not a returned tuple: this runs once per delivery, for thousands
        // of followers of one request, and every tuple type is looked up at run time in generic code).
        var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?
        var delegateActor: (any Actor)?
        var subscribers: UpdateSubscribers<Object>?
        var awaiting: Set<Int> = []
        var effects = Effects()
        var forwardTo: SharedResults<Object>?
        var built: ResultsBatch<Object>?
        var delivery: Effects?
        var toDelegate = false
        var routeMetrics: RouteMetrics?
        var entity = ""
        let hasChanges = changeset?.isEmpty == false
        state.withLock { state in
            if hasChanges { routeMetrics = state.currentRouteMetrics(in: router) }
            // Built under the lock: what they say (the router's position) holds when the results move.
            for event in events() {
                let decided = decide(event, in: &state)
                effects.actions += decided.actions
                if !decided.entity.isEmpty { effects.entity = decided.entity }
            }
            delegate = state.delegate
            delegateActor = state.delegateActor
            subscribers = state.subscribers
            // The machine moves to the new results and says whether the delegate gets a batch.
            let publication = Machine.Publication(
                snapshot: snapshot, previous: previous, hasChanges: hasChanges, transactionID: transactionID,
                reconcile: reconcile)
            var covered: ClosedRange<UInt64>?
            for action in decide(.published(publication), in: &state).actions {
                if case .publish(let covering, let delegated, let initial) = action {
                    (covered, toDelegate, awaiting) = (covering, delegated, initial)
                }
            }
            if hasChanges || reconcile, delegate != nil || subscribers != nil {
                built =
                    if let batch, batch.transactionID == transactionID { batch.covering(covered) } else {
                        ResultsBatch(
                            previous: previous, snapshot: snapshot,
                            changeset: changeset
                                ?? Changeset(
                                    sectionCountsBefore: previous.sectionCounts,
                                    sectionCountsAfter: snapshot.sectionCounts),
                            transactionID: transactionID, transactions: covered)
                    }
            }
            if let built, toDelegate, delegate != nil, delegateActor == nil {
                // The delegate is called on this task: its batch is decided now, under the same lock, so no move
                // of its UI falls between the results moving and the batch being built.
                delivery = decide(
                    .delegateDelivery(
                        built, replay: state.machine.delegateMoves.isEmpty ? nil : replay(for: state.request)),
                    in: &state)
            }
            switch origin {
            case .engine:
                forwardTo = state.sharing.ledGroup
                if forwardTo != nil { entity = state.request.entityName }
            case .adopted(let version, _): _ = decide(.sharedVersion(version), in: &state)
            case .local: break
            }
        }
        perform(effects)
        let forwarding = forwardTo?.hasFollowers == true ? forwardTo : nil
        guard built != nil || forwarding != nil else { return handOut(TraceSpan.none) }
        // A child of the apply span the controller runs in (``FetchKitTracing``); none outside one.
        return FetchKitTracing.span(
            "fetchkit.deliver", parent: .current,
            attributes: router.traceAttributes + [
                ("fetchkit.controller", .string("\(routeID)")),
                ("fetchkit.transaction.id", .int(Int(truncatingIfNeeded: transactionID ?? 0))),
                ("fetchkit.batch.changes", .int(built?.changeset?.changeCount ?? 0)),
                ("fetchkit.followers", .int(forwarding?.followerCount ?? 0))
            ], handOut)

        /// Hands the batch to the followers, the update sequences and the delegate.
        func handOut(_ span: TraceSpan) -> DelegateHop? {
            if let group = forwarding {
                // Every batch, even an empty one. Followers whose results are this batch's previous snapshot apply
                // it as it is; the others (after a local move, a change of leader) diff to its snapshot.
                let shared = ResultsBatch(
                    previous: previous, snapshot: snapshot,
                    changeset: changeset
                        ?? Changeset(
                            sectionCountsBefore: previous.sectionCounts, sectionCountsAfter: snapshot.sectionCounts),
                    transactionID: transactionID, transactions: nil, preparingChanges: true)
                let version = group.forward(
                    shared, metrics: router.routeMetrics(entity: entity, kind: .follower),
                    since: queue.withLock { $0.running })
                state.withLock { _ = decide(.sharedVersion(max($0.sharing.version ?? 0, version)), in: &$0) }
            }
            if let subscribers, !awaiting.isEmpty {
                let initial = ResultsBatch(previous: snapshot, snapshot: snapshot, changeset: nil, transactionID: nil)
                for id in awaiting { subscribers.yield(initial, to: id) }
            }
            guard let update = built else { return nil }
            // Timed from the commit of the oldest change the controller is applying, or the leader applied.
            let adoptedSince: ContinuousClock.Instant? =
                if case .adopted(_, let since) = origin { since } else { nil }
            routeMetrics?.delivered(since: adoptedSince ?? queue.withLock { $0.running })
            if let subscribers, subscribers.yield(update, except: awaiting) > 0 {
                send(.counted(.coalesced))
                router.metrics.coalescedDeliveries.increment()
            }
            if let delivery {
                perform(delivery)
                return nil
            }
            guard delegate != nil, toDelegate, let delegateActor else { return nil }
            return DelegateHop(actor: delegateActor) { self.deliverToDelegate(update) }
        }
    }

    /// Sends `update` to a delegate bound to an actor, on that actor: from what the delegate shows there (a user
    /// move on the actor may have changed it since the batch was published) to the batch's results with the
    /// delegate's waiting moves applied.
    private func deliverToDelegate(_ update: ResultsBatch<Object>) {
        // Under the lock, so that a move the view makes next starts from what this delivery shows.
        send { state in
            .delegateDelivery(
                update, replay: state.machine.delegateMoves.isEmpty ? nil : replay(for: state.request))
        }
    }
}

/// A batch's delivery to a delegate bound to an actor (``ResultsController/setDelegate(_:isolation:)``),
/// still to run there.
struct DelegateHop: Sendable {
    let actor: any Actor
    let body: @Sendable () -> Void

    /// Runs the delivery on the delegate's actor.
    func perform() async {
        await Self.run(on: actor, body)
    }

    private static func run(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
        body()
    }
}
