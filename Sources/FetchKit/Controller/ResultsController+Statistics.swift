extension ResultsController {
    /// How a controller has applied store changes so far: what tells an incremental path from a refetch.
    public struct Statistics: Sendable, Hashable {
        /// Changes applied incrementally (re-reading only the changed keys).
        public var incrementalUpdates: Int
        /// Incremental updates decided in memory on the rows the store's change router re-read once for
        /// every controller (no query of the controller's own).
        public var routedUpdates: Int
        /// Full windows (with a `fetchLimit`) refilled by a keyset query.
        public var keysetRefills: Int
        /// Changes applied by refetching the whole request and diffing.
        public var fullRefreshes: Int
        /// Times a backlog of store changes (or shared batches) collapsed into one batch because the
        /// controller fell behind: its delegate was slower than the commits.
        public var coalescedDeliveries: Int
        /// The most store changes and shared batches that ever waited for the controller at once (bounded:
        /// a backlog collapses when it reaches 64).
        public var largestBacklog: Int
        /// How the store's change router finds the changes that can affect the controller.
        public var routing: Routing
    }

    /// How the store's change router finds the changes that can affect a controller (``ControllerRouting``).
    public typealias Routing = ControllerRouting

    /// How the controller has applied store changes so far.
    public var statistics: Statistics {
        let largestBacklog = queue.withLock { $0.largestBacklog }
        return state.withLock {
            let counts = $0.machine.counts
            return Statistics(
                incrementalUpdates: counts.incrementalUpdates, routedUpdates: counts.routedUpdates,
                keysetRefills: counts.keysetRefills, fullRefreshes: counts.fullRefreshes,
                coalescedDeliveries: counts.coalescedDeliveries, largestBacklog: largestBacklog,
                routing: Self.routing(of: $0))
        }
    }

    /// How the router finds the changes for a controller in `state`.
    static func routing(of state: State) -> Routing {
        if state.sharing.isFollower { return .follower }
        guard state.hasFetched, let plan = state.plan else { return .unrouted }
        return plan.routing
    }
}

extension ResultsController {
    /// The last store transaction the results reflect: every transaction through it has been applied, those
    /// that needed no batch included.
    ///
    /// Transactions that cannot affect the controller never reach it, so this follows the store's change
    /// router while the controller is idle. A follower of shared results reports what it has delivered.
    public var appliedTransactionID: UInt64 {
        let (applied, isStale, follows) = state.withLock { state in
            (state.appliedThrough, state.isStale, state.sharing.isFollower)
        }
        guard !isStale, !follows, let routed = router.routedThroughIfIdle(routeID) else { return applied }
        return max(applied, routed)
    }
}
