import Foundation
import Synchronization

/// The subscribers of one store's change feed, and the publishing of committed changes to them (every
/// backend's ``PersistentStore/changes()``).
///
/// Each subscriber is an `AsyncStream` with an unbounded buffer: publishing never waits for a
/// consumer, so a slow consumer cannot hold up the writer thread (its undelivered changes pile up
/// in its buffer instead). Ending a stream's iteration (or cancelling its task) unsubscribes it.
///
/// Every change gets the next transaction ID under one lock and is yielded to every subscriber
/// before the next change is numbered, so all subscribers see the same changes in the same order.
@_spi(Backend) public final class ChangeFeed: Sendable {
    private struct Subscribers {
        var continuations: [Int: AsyncStream<StoreChange>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    private let subscribers = Mutex(Subscribers())
    /// Orders publishing: numbering and yielding one change happen before the next change's.
    /// Held while yielding; an unbounded stream's `yield` neither blocks nor calls back into the feed.
    private let publishing = Mutex<UInt64>(0)

    public init() {}

    /// A new subscription: every change published from now on, until ``finish()``.
    public func subscribe() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .unbounded)
        let id = subscribers.withLock { state -> Int? in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
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

    /// How many streams are subscribed.
    public var subscriberCount: Int {
        subscribers.withLock { $0.continuations.count }
    }

    /// Publishes one committed transaction's changes under the next transaction ID.
    public func publish(_ tables: [String: TableChange]) {
        publish { StoreChange(transactionID: $0, tables: tables) }
    }

    /// Publishes a resync: changes may have been made that the feed cannot name.
    public func publishResync() {
        publish { StoreChange.resync(transactionID: $0) }
    }

    /// Ends every subscriber's stream; later subscriptions end at once and publishing does nothing.
    public func finish() {
        let ended = subscribers.withLock { state -> [AsyncStream<StoreChange>.Continuation] in
            state.isFinished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        // Outside the lock: finishing runs each stream's onTermination, which takes it.
        for continuation in ended { continuation.finish() }
    }

    /// The ID of the last change published (0 before the first).
    public var lastPublishedID: UInt64 {
        publishing.withLock { $0 }
    }

    private func publish(_ makeChange: (UInt64) -> StoreChange) {
        publishing.withLock { lastID in
            let targets = subscribers.withLock { state in
                state.isFinished ? [] : Array(state.continuations.values)
            }
            lastID += 1
            let change = makeChange(lastID)
            for continuation in targets { continuation.yield(change) }
        }
    }

    private func unsubscribe(_ id: Int) {
        subscribers.withLock { state in
            _ = state.continuations.removeValue(forKey: id)
        }
    }
}
