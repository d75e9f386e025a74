import Foundation
import Synchronization

/// One store's change feed: every committed transaction, in commit order, to every subscriber — and the routing
/// of the store's live controllers, which the feed owns.
///
/// A store makes one when it is made, keeps it as a `let` and returns it as ``PersistentStore/changeFeed``. Apps
/// read it: ``subscribe()`` (what ``PersistentStore/changes()`` returns), ``lastPublishedID``, ``delivery``.
/// Backends write to it through `FetchKitBackendKit`, which adds `publish(_:logPosition:committedAt:)`,
/// `publishResync()`, `publishDelivery(_:)` and `finish()`.
///
/// Each stream subscriber has an unbounded buffer: publishing never waits for a consumer, so a slow consumer
/// cannot hold up the writer thread (its undelivered changes pile up in its buffer instead). Ending a stream's
/// iteration (or cancelling its task) unsubscribes it. The change router of the store's controllers subscribes a
/// handler instead, called on the publishing thread: it folds a backlog in a bounded inbox.
///
/// Every change gets the next transaction ID under one lock and is yielded to every subscriber
/// before the next change is numbered, so all subscribers see the same changes in the same order.
public final class ChangeFeed: Sendable {
    private struct Handler: Sendable {
        let receive: @Sendable (StoreChange) -> Void
        let finish: @Sendable () -> Void
    }

    private struct Subscribers {
        var continuations: [Int: AsyncStream<StoreChange>.Continuation] = [:]
        var handlers: [Int: Handler] = [:]
        var nextID = 0
        var isFinished = false
    }

    /// A handler's subscription: cancelling it, or releasing it, unsubscribes the handler.
    public final class Subscription: Sendable {
        private let cancelled: Mutex<(@Sendable () -> Void)?>

        init(cancel: @escaping @Sendable () -> Void) {
            cancelled = Mutex(cancel)
        }

        deinit { cancel() }

        /// Unsubscribes the handler: no publication that starts after this returns calls it.
        public func cancel() {
            let cancel = cancelled.withLock { cancel in
                defer { cancel = nil }
                return cancel
            }
            cancel?()
        }
    }

    private let subscribers = Mutex(Subscribers())
    /// The change routers of the stores whose controllers follow this feed (see ``LiveResultsRouting``).
    let routing = LiveResultsRouting()
    /// Orders publishing: numbering and yielding one change happen before the next change's.
    /// Held while yielding; an unbounded stream's `yield` neither blocks nor calls back into the feed.
    private let publishing = Mutex(Publishing())

    /// What publishing numbers and remembers.
    private struct Publishing {
        /// The ID of the last change published.
        var lastID: UInt64 = 0
        /// Whether the feed delivers (``publishDeliveryChange(_:)``).
        var delivery = FeedDelivery.streaming
    }

    public init() {}

    /// A new subscription: every change published from now on, until the feed ends — first, while the feed cannot
    /// deliver or is behind, a change that reports its ``delivery``.
    public func subscribe() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .unbounded)
        let id = publishing.withLock { publishing -> Int? in
            let id = subscribers.withLock { state -> Int? in
                guard !state.isFinished else { return nil }
                let id = state.nextID
                state.nextID += 1
                state.continuations[id] = continuation
                return id
            }
            if id != nil, let report = Self.report(publishing) { continuation.yield(report) }
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.unsubscribe(id)
        }
        return stream
    }

    /// Calls `receive` with every change published from now on, in order, on the thread that publishes it
    /// (a writer's, a listener's), and `finish` once the feed ends (at once when it already has).
    ///
    /// `receive` runs while the feed holds its publishing lock: it must return promptly, never wait, and never
    /// call back into the feed.
    /// While the feed cannot deliver, or is behind, `receive` is told so first (a change that reports the feed's
    /// ``delivery``, under the last published ID).
    package func attach(
        receive: @escaping @Sendable (StoreChange) -> Void, finish: @escaping @Sendable () -> Void
    ) -> Subscription {
        // Under the publishing lock: no change is published between the handler's registration and that report.
        let id = publishing.withLock { publishing -> Int? in
            let id = subscribers.withLock { state -> Int? in
                guard !state.isFinished else { return nil }
                let id = state.nextID
                state.nextID += 1
                state.handlers[id] = Handler(receive: receive, finish: finish)
                return id
            }
            if id != nil, let report = Self.report(publishing) { receive(report) }
            return id
        }
        guard let id else {
            finish()
            return Subscription {}
        }
        return Subscription { [weak self] in
            guard let self else { return }
            _ = self.subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// How many streams and handlers are subscribed.
    package var subscribedCount: Int {
        subscribers.withLock { $0.continuations.count + $0.handlers.count }
    }

    /// Publishes one committed transaction's changes under the next transaction ID, with where its commit ends in
    /// the database's log when the store reads one.
    ///
    /// `committedAt` is when the transaction committed, when the store can tell (from the database's log) that it
    /// was before now: the delivery lag of every controller is measured from it.
    package func publishTransaction(
        _ tables: [String: TableChange], logPosition: UInt64?, committedAt: ContinuousClock.Instant?
    ) {
        publish { id in
            var change = StoreChange(transactionID: id, tables: tables, logPosition: logPosition)
            // The writer's trace, where the store publishes on the thread that committed (or binds it there).
            change.traces = .current
            if let committedAt { change.publishedAt = min(change.publishedAt, committedAt) }
            return change
        }
    }

    /// Publishes a resync: changes may have been made that the feed cannot name.
    package func publishResyncChange() {
        publish { StoreChange.resync(transactionID: $0) }
    }

    /// Publishes a change of whether the feed can deliver, unless it says what the feed said last: every live
    /// controller of the store leaves ``ResultsStatus/live`` at once on ``FeedDelivery/interrupted(_:)``, and
    /// returns to it once it has applied what was published before ``FeedDelivery/streaming``. Publish a resync
    /// first when changes may have been missed meanwhile.
    package func publishDeliveryChange(_ delivery: FeedDelivery) {
        publishing.withLock { publishing in
            guard publishing.delivery != delivery else { return }
            publishing.delivery = delivery
            publish(in: &publishing) { id in
                var change = StoreChange(transactionID: id, tables: [:])
                change.delivery = delivery
                return change
            }
        }
    }

    /// Whether the feed delivers now, as its store last said.
    public var delivery: FeedDelivery {
        publishing.withLock { $0.delivery }
    }

    /// Ends every subscriber's stream; later subscriptions end at once and publishing does nothing.
    package func end() {
        let (ended, handlers) = subscribers.withLock { state in
            state.isFinished = true
            defer {
                state.continuations.removeAll()
                state.handlers.removeAll()
            }
            return (Array(state.continuations.values), Array(state.handlers.values))
        }
        // Outside the lock: finishing runs each stream's onTermination, which takes it.
        for continuation in ended { continuation.finish() }
        for handler in handlers { handler.finish() }
    }

    /// Whether the feed ended (its store closed).
    package var isFinished: Bool {
        subscribers.withLock { $0.isFinished }
    }

    /// The ID of the last change published (0 before the first).
    public var lastPublishedID: UInt64 {
        publishing.withLock { $0.lastID }
    }

    private func publish(_ makeChange: (UInt64) -> StoreChange) {
        publishing.withLock { publish(in: &$0, makeChange) }
    }

    /// What a new subscriber is told first: the feed's delivery, unless it streams.
    private static func report(_ publishing: Publishing) -> StoreChange? {
        guard publishing.delivery != .streaming else { return nil }
        var change = StoreChange(transactionID: publishing.lastID, tables: [:])
        change.delivery = publishing.delivery
        return change
    }

    /// Numbers and yields one change, under the publishing lock.
    private func publish(in publishing: inout Publishing, _ makeChange: (UInt64) -> StoreChange) {
        let (targets, handlers) = subscribers.withLock { state in
            state.isFinished ? ([], []) : (Array(state.continuations.values), Array(state.handlers.values))
        }
        publishing.lastID += 1
        let change = makeChange(publishing.lastID)
        for continuation in targets { continuation.yield(change) }
        for handler in handlers { handler.receive(change) }
    }

    private func unsubscribe(_ id: Int) {
        subscribers.withLock { state in
            _ = state.continuations.removeValue(forKey: id)
        }
    }
}
