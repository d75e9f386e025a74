/// Applying what the change router hands over: incrementally with the rows it re-read when they can be
/// trusted, with the controller's own re-read otherwise, and by refetching when neither applies. A
/// controller that cannot read the database stays pending — it retries until it has caught up — and never
/// reports a change it did not apply.
extension ResultsController: RouteTarget {
    func receive(_ change: RoutedChange) {
        enqueue(.routed(change))
    }

    func feedEnded() {
        enqueue(.fail(.closed))
    }

    func feedInterrupted(_ error: FetchKitError, id: UInt64) {
        send(.feedInterrupted(error, id: id))
    }

    func feedResumed(id: UInt64) {
        // Behind what was routed before: the resync that covers the interruption is applied first.
        enqueue(.feedResumed(id: id))
    }

    /// The keys that entered and left the results in one step (the router's holder index follows them).
    struct MembershipDelta {
        var entered: [Value] = []
        var left: [Value] = []
        /// How many changed keys the step applied.
        var applied = 0
    }

    /// Applies one routed change and says which keys entered and left the results.
    func apply(_ routed: RoutedChange) async -> MembershipDelta {
        let change = routed.change
        let (request, isRelevant, isStopped, horizon, table) = state.withLock { state in
            (
                state.request,
                // A follower's batches come from its leader.
                state.hasFetched && !state.sharing.isFollower
                    && (change.isResync || change.tables.keys.contains(where: state.tables.contains)),
                state.isStale || state.status.isFailed,
                state.machine.horizon, state.entityTable
            )
        }
        // A stale controller's retry refetches everything, a failed one applies nothing; a change the last
        // fetch saw is already in.
        guard isRelevant, !isStopped, horizon.admits(change) else { return .init() }
        // Rows re-read before the last fetch's end, or before the controller's last move was written, may be
        // older than its results (a fold: its oldest rows).
        let reread = horizon.trustsReads(routedThrough: routed.earliestRead) ? routed.rows[table] : nil
        let clock = ContinuousClock()
        let started = clock.now
        do {
            if let delta = try await applyIncrementally(change, reread: reread) {
                let elapsed = clock.now - started
                router.costs.withLock { $0.incrementalApplied(keys: delta.applied, duration: elapsed) }
                router.metrics.incrementalChanges.increment()
                return delta
            }
        } catch {
            logger.debug("incremental update failed, refetching", metadata: ["error": "\(error)"])
        }
        do {
            let refetchStarted = clock.now
            try await refresh(to: request, transactionID: change.transactionID)
            let elapsed = clock.now - refetchStarted
            let rows = state.withLock { state in
                _ = decide(.counted(.fullRefresh), in: &state)
                return state.snapshot.count
            }
            router.costs.withLock { $0.refetched(rows: rows, duration: elapsed) }
            router.metrics.refetchedChanges.increment()
            if change.isResync { router.metrics.feedResyncs.increment() }
        } catch {
            handleFailure(error)
        }
        // A refetch reports its keys to the router itself.
        return .init()
    }

    /// A stale controller's retry is due: refetch, and release the `sync()` callers when it worked (see
    /// ``ControllerMachine``: a transient failure retries after a delay doubling up to 2 s, until it succeeds).
    func retryRefresh() async {
        let (effects, request) = state.withLock { (decide(.retryDue, in: &$0), $0.request) }
        perform(effects)
        guard effects.refetches else { return }
        // The refetch reflects every transaction routed before it: its batch names them all.
        let through = router.routedThrough
        do {
            try await refresh(to: request, transactionID: through == .max ? nil : through)
        } catch {
            handleFailure(error)
            return
        }
        send(.counted(.fullRefresh))
        send(.caughtUp)
    }

    /// The routed rows of the changed keys that the request matches, as the controller's own rows (its
    /// columns, in its order), or `nil` when the rows cannot stand in for the controller's own re-read.
    func matchingRows(
        _ reread: RereadRows, related: [(foreignKey: String, keys: Set<Value>)], relatedTables: [String]
    ) -> [Row]? {
        let (plan, layout) = state.withLock { ($0.plan, $0.rowLayout) }
        guard let memory = plan?.memory, memory.decides, let layout,
            memory.relatedColumns.isSubset(of: reread.relatedColumns)
        else { return nil }
        for (table, (foreignKey, _)) in zip(relatedTables, related) {
            guard reread.followed[table]?.contains(foreignKey) == true else { return nil }
        }
        var rows = RowBuilder(layout: layout)
        for key in reread.keys {
            guard let row = reread.rows[key], memory.predicate.matches(row) else { continue }
            for name in layout.names {
                guard let value = row[name] else { return nil }
                rows.append(value)
            }
            rows.endRow()
        }
        return rows.finish()
    }
}
