/// Sharing one engine between controllers with equal requests (``SharedResults``): a fetch joins the
/// request's group as a follower when it has a live leader, and leads a new group otherwise; the leader
/// hands each batch on; a follower delivers it; a follower takes over when the leader leaves.
extension ResultsController {
    /// Fetches `request` (``performFetch()``, ``setRequest(_:)``): follows the shared results of an equal
    /// request when another controller keeps them, otherwise fetches and leads.
    func fetchOrJoin(_ request: AnyFetchRequest) async throws {
        _ = try request.validated(in: store.schema)
        try request.checkSectionOrder()
        let key = SharedResultsKey(objectType: ObjectIdentifier(Object.self), request: request)
        leaveGroup()
        if let group = router.sharedResults(key, as: Object.self), try await join(group, request: request) { return }
        try await refresh(to: request, transactionID: nil)
        let group = SharedResults(leader: self)
        send(.shares(.leading(group, version: 0)))
        router.register(group, for: key)
    }

    /// Follows `group`: takes its leader's results (the batch from the current ones, as a refetch would emit).
    ///
    /// - Returns: `false` when the group has no leader with results to share.
    private func join(_ group: SharedResults<Object>, request: AnyFetchRequest) async throws -> Bool {
        // The leader is released after the lock (its last release would leave the group: see `leave`).
        var leader: ResultsController<Object>?
        let shared = group.members.withLock { members -> (ResultsSnapshot<Object>, UInt64?, State)? in
            leader = members.leader
            guard let leader, leader !== self else { return nil }
            let state = leader.state.withLock { state -> State? in
                state.hasFetched && !state.isStale && state.request == request ? state : nil
            }
            guard let state else { return nil }
            members.add(self)
            return (state.snapshot, state.sharing.version, state)
        }
        withExtendedLifetime(leader) {}
        guard let (snapshot, version, leaderState) = shared else { return false }
        let (previous, hasFetched, heldKeys) = state.withLock { state in
            (state.snapshot, state.hasFetched, state.plan?.memory != nil ? state.snapshot.keys : [])
        }
        router.dropPlan(routeID, heldKeys: heldKeys)
        let changeset = hasFetched ? try ResultsDiff.changeset(from: previous, to: snapshot) : nil
        await publish(
            snapshot, previous: previous, changeset: changeset, transactionID: nil,
            origin: .adopted(version, since: nil),
            events: [
                .requestInstalled(InstalledRequest(request: request, shape: leaderState.shape, plan: nil)),
                .shares(.following(group, version: version))
            ])?.perform()
        return true
    }

    /// Leaves the current group: a leader hands it to a follower, a follower just goes.
    func leaveGroup() {
        let sharing = state.withLock { state in
            defer { _ = decide(.shares(.alone), in: &state) }
            return state.sharing
        }
        guard let group = sharing.group else { return }
        Self.leave(group, controller: ObjectIdentifier(self), isLeader: sharing.ledGroup != nil)
    }

    /// Removes a controller from `group`; when it led — or the group has lost its leader (a follower released
    /// before it took over) — the first live follower takes over.
    static func leave(_ group: SharedResults<Object>, controller: ObjectIdentifier, isLeader: Bool) {
        // Strong references taken under the lock are released after it: the last release of a controller
        // runs its deinit, which leaves this group too.
        var leader: ResultsController<Object>?
        let successor = group.members.withLock { members -> ResultsController<Object>? in
            members.remove(controller)
            leader = members.leader
            if let leader, ObjectIdentifier(leader) != controller { return nil }
            let next = members.removeFirstLive()
            members.leader = next
            return next
        }
        withExtendedLifetime(leader) {}
        successor?.enqueue(.promote)
    }

    /// A follower takes over: it installs its plan and refetches once (changes may have been routed to the
    /// old leader and never applied), handing the batch on to the other followers.
    func takeOver() async {
        let request = state.withLock { state in
            _ = decide(.promoted, in: &state)
            return state.request
        }
        do {
            try await refresh(to: request, transactionID: nil)
        } catch {
            handleFailure(error)
        }
    }

    /// A follower delivers one batch of the results it follows: on the caller's task when it is idle (the
    /// group's forwarding task: no command, no task of its own), else queued behind its current work.
    ///
    /// - Returns: whether it delivered a batch with changes in step, which the caller counts
    ///   (``FetchKitMetrics/batchesDelivered``) once for all the followers it runs.
    ///
    /// `since` is when the oldest change the batch shows was committed: its delivery's latency is timed from it.
    func runAdopt(
        _ update: ResultsBatch<Object>, version: UInt64, group: ObjectIdentifier, since: ContinuousClock.Instant?
    ) async -> Bool {
        guard claim(orQueue: .adopt(update.erased, version: version, group: group, since: since)) else { return false }
        var uncounted = false
        if let hop = adopt(update, version: version, from: group, since: since, uncounted: &uncounted) {
            await hop.perform()
        }
        // Ends the turn here rather than in `endTurn()`: an idle follower then takes no call to suspend.
        if queue.withLock({ $0.stopIfIdle() }) { return uncounted }
        await drain()
        return uncounted
    }

    /// A follower delivers one batch of the results it follows (not of a group it has left since).
    ///
    /// A follower in step — its delegate shows the batch's previous results, is called on this task, and no
    /// update sequence reads it — takes the batch as it is, under one lock; the others publish it as their own.
    func adopt(
        _ update: ResultsBatch<Object>, version: UInt64, from group: ObjectIdentifier, since: ContinuousClock.Instant?
    ) -> DelegateHop? {
        var uncounted = false
        let hop = adopt(update, version: version, from: group, since: since, uncounted: &uncounted)
        if uncounted { state.withLock { $0.currentRouteMetrics(in: router) }.delivered(since: since) }
        return hop
    }

    /// ``adopt(_:version:from:)``, leaving a batch with changes delivered in step to the caller to count
    /// (`uncounted` becomes `true`): the forwarding task counts its followers' deliveries at once.
    func adopt(
        _ update: ResultsBatch<Object>, version: UInt64, from group: ObjectIdentifier, since: ContinuousClock.Instant?,
        uncounted: inout Bool
    ) -> DelegateHop? {
        var current: ResultsSnapshot<Object>?
        var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?
        var inStep: InStepDelivery?
        state.withLock { state in
            guard case .following(let follows, let held) = state.sharing, ObjectIdentifier(follows) == group
            else { return }
            if let held, version <= held { return }
            if state.machine.audience.hasNoReaders, state.delegateActor == nil,
                let stepping = state.delegate,
                let step = state.machine.publishedInStep(
                    .init(
                        snapshot: update.snapshot, previous: update.previous, hasChanges: update.hasChanges,
                        transactionID: update.transactionID), sharedVersion: version)
            {
                delegate = stepping
                inStep = step
                return
            }
            current = state.snapshot
        }
        if let inStep {
            uncounted = update.hasChanges
            if inStep.toDelegate, let delegate { notify(delegate, of: update.covering(inStep.covering), inStep: true) }
            return nil
        }
        guard let current else { return nil }
        if update.previous.isIdentical(to: current) {
            return publish(
                update.snapshot, previous: current, changeset: update.changeset, transactionID: update.transactionID,
                origin: .adopted(version, since: since), batch: update)
        } else {
            // A local move, a join or a change of leader in between: the difference from what it shows.
            let changeset: Changeset
            do {
                changeset = try ResultsDiff.changeset(from: current, to: update.snapshot)
            } catch {
                failDelivery(error, to: "a follower of shared results")
                return nil
            }
            return publish(
                update.snapshot, previous: current, changeset: changeset, transactionID: update.transactionID,
                origin: .adopted(version, since: since))
        }
    }

    /// Waits until the leader of the results this controller follows has applied everything routed to it.
    func syncLeader() async {
        guard let group = state.withLock({ $0.sharing.followedGroup }) else { return }
        if let leader = group.leader, leader !== self {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                leader.enqueue(.barrier(continuation))
            }
        }
        // The leader's batches are handed on by the group's own task: wait until they reached this follower.
        await group.waitForwarded()
    }

    /// Where a published batch comes from, for the shared results.
    enum PublishOrigin {
        /// The controller's own engine (a fetch, a routed change): a leader hands it on.
        case engine
        /// A local change the database has not confirmed yet (a move): followers catch up by diffing.
        case local
        /// A batch of the leader's, at `version`, showing changes committed from `since` on (when it shows any).
        case adopted(UInt64?, since: ContinuousClock.Instant?)
    }
}
