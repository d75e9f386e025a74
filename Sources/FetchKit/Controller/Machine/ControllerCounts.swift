/// How a controller has applied the store's changes (``ResultsController/statistics``), counted by the machine.
struct ControllerCounts: Sendable, Equatable {
    /// Store changes applied incrementally (re-reading only the changed keys).
    var incrementalUpdates = 0
    /// Of those, the ones decided in memory on rows the change router re-read (no query of their own).
    var routedUpdates = 0
    /// Full windows the incremental path refilled with a keyset query.
    var keysetRefills = 0
    /// Store changes applied by refetching the whole request.
    var fullRefreshes = 0
    /// Readers of ``ResultsController/updates(bufferingLimit:)`` whose sequences coalesced batches, in all.
    var coalescedDeliveries = 0

    /// What one event counts.
    enum Count: Sendable {
        /// A change applied incrementally, refilling its window with a keyset query or not.
        case incremental(keysetRefill: Bool)
        /// A change decided on the router's re-read rows.
        case routed
        /// A change (or a catch-up) applied by refetching.
        case fullRefresh
        /// Batches that collapsed into one for a slow reader, or in the controller's queue.
        case coalesced
    }

    mutating func add(_ count: Count) {
        switch count {
        case .incremental(let keysetRefill):
            incrementalUpdates += 1
            if keysetRefill { keysetRefills += 1 }
        case .routed: routedUpdates += 1
        case .fullRefresh: fullRefreshes += 1
        case .coalesced: coalescedDeliveries += 1
        }
    }
}
