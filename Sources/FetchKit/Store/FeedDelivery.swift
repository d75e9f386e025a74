/// Whether a store's change feed can deliver what commits: a controller reads ``ResultsStatus/live`` only while
/// its feed streams.
///
/// A backend whose feed can lose its source (a connection to a database server) reports each change of it with
/// ``ChangeFeed/publishDelivery(_:)``: ``interrupted(_:)`` as soon as it cannot deliver — disconnected,
/// reconnecting, waiting for its replication slot, a watched table missing from its publication — and
/// ``streaming`` once it delivers again, right after the resync that covers what it may have missed:
///
/// ```swift
/// feed.publishDelivery(.interrupted(.connectionLost("the replication connection closed")))
/// // … reconnected:
/// feed.publishResync()
/// feed.publishDelivery(.streaming)
/// ```
///
/// Every live controller of the store reports ``ResultsStatus/resyncing(_:)`` from the interruption on, and
/// returns to ``ResultsStatus/live`` only once it has applied the changes published before ``streaming``.
public enum FeedDelivery: Sendable, Hashable {
    /// The feed delivers every committed change.
    case streaming
    /// The feed cannot deliver, for this reason.
    case interrupted(FetchKitError)
}
