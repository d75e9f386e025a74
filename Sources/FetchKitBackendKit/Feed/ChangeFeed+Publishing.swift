/// The writing side of a store's change feed: what a backend publishes as its database commits.
///
/// ```swift
/// final class MyStore: PersistentStore {
///     let changeFeed = ChangeFeed()
///
///     func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T {
///         let (result, tables) = try commit(body)  // the tables and keys the transaction changed
///         changeFeed.publish(tables)
///         return result
///     }
/// }
/// ```
extension ChangeFeed {
    /// Publishes one committed transaction's changes under the next transaction ID, with where its commit ends in
    /// the database's log when the store reads one.
    ///
    /// `committedAt` is when the transaction committed, when the store can tell (from the database's log) that it
    /// was before now: the delivery lag of every controller is measured from it.
    public func publish(
        _ tables: [String: TableChange], logPosition: UInt64? = nil, committedAt: ContinuousClock.Instant? = nil
    ) {
        publishTransaction(tables, logPosition: logPosition, committedAt: committedAt)
    }

    /// Publishes a resync: changes may have been made that the feed cannot name.
    public func publishResync() {
        publishResyncChange()
    }

    /// Publishes a change of whether the feed can deliver, unless it says what the feed said last: every live
    /// controller of the store leaves ``ResultsStatus/live`` at once on ``FeedDelivery/interrupted(_:)``, and
    /// returns to it once it has applied what was published before ``FeedDelivery/streaming``. Publish a resync
    /// first when changes may have been missed meanwhile.
    public func publishDelivery(_ delivery: FeedDelivery) {
        publishDeliveryChange(delivery)
    }

    /// Ends the feed (the store closed): every subscriber's stream ends, every live controller of the store stops
    /// with ``FetchKitError/closed``, later subscriptions end at once and publishing does nothing.
    public func finish() {
        end()
    }

    /// Calls `receive` with every change published from now on, in order, on the thread that publishes it
    /// (a writer's, a listener's), and `finish` once the feed ends (at once when it already has).
    ///
    /// `receive` runs while the feed holds its publishing lock: it must return promptly, never wait, and never
    /// call back into the feed. While the feed cannot deliver, or is behind, `receive` is told so first (a change
    /// that reports the feed's ``ChangeFeed/delivery``, under the last published ID).
    public func subscribe(
        receive: @escaping @Sendable (StoreChange) -> Void, finish: @escaping @Sendable () -> Void
    ) -> Subscription {
        attach(receive: receive, finish: finish)
    }

    /// How many streams and handlers are subscribed.
    public var subscriberCount: Int { subscribedCount }
}
