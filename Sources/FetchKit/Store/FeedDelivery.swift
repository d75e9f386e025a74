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
/// returns to ``ResultsStatus/live`` only once it has applied the changes published before ``streaming``. A feed
/// that can tell it is behind the database (a log the server has not sent yet) reports ``lagging(since:)``:
/// controllers then measure their lag from that instant, and read ``ResultsStatus/catchingUp(lag:)`` past their
/// threshold.
public enum FeedDelivery: Sendable, Hashable {
    /// The feed delivers every committed change.
    case streaming
    /// The feed delivers, but has not yet received what the database committed since `since` (the log is behind
    /// the database): controllers count their lag from then.
    case lagging(since: ContinuousClock.Instant)
    /// The feed cannot deliver, for this reason.
    case interrupted(FetchKitError)
}

extension FeedDelivery {
    /// Whether the feed delivers (streaming, maybe behind).
    var delivers: Bool {
        if case .interrupted = self { false } else { true }
    }
}
