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
    }

    /// How the controller has applied store changes so far.
    public var statistics: Statistics {
        state.withLock {
            Statistics(
                incrementalUpdates: $0.incrementalUpdates, routedUpdates: $0.routedUpdates, keysetRefills: $0.keysetRefills, fullRefreshes: $0.fullRefreshes)
        }
    }
}
