/// A results controller's batches as an asynchronous sequence: the current results first (with a `nil`
/// changeset), then one element per batch, in commit order.
///
/// ```swift
/// do {
///     for try await update in controller.updates() {
///         render(update.snapshot, update.changeset)
///     }
/// } catch {
///     show(error)   // the controller stopped following the database (see ResultsStatus)
/// }
/// ```
///
/// **A slow reader stays bounded and loses nothing.** Every batch is delivered while the reader is fewer than
/// `bufferingLimit` batches behind; beyond that, the waiting batches collapse into one batch from the
/// results the reader last received to the newest ones (the batch ``ResultsUpdate/init(from:to:transactionID:)`` would
/// build), so memory holds at most `bufferingLimit` batches and two snapshots. A collapsed batch names every
/// transaction it covers in ``ResultsUpdate/transactions``.
///
/// **It ends by throwing** the ``FetchKitError`` that stopped the controller (a permanent failure, see
/// ``ResultsStatus/failed(_:)``), after the batches before the failure; it ends normally when the controller
/// goes away. Ending the iteration (or cancelling its task) unsubscribes.
public struct ResultsUpdates<Object: Sendable>: AsyncSequence, Sendable {
    public typealias Element = ResultsUpdate<Object>
    public typealias Failure = FetchKitError

    let subscription: Subscription

    /// Unsubscribes when the last copy of the sequence and its iterator are gone.
    final class Subscription: Sendable {
        let buffer: UpdateBuffer<Object>
        let unsubscribe: @Sendable () -> Void

        init(buffer: UpdateBuffer<Object>, unsubscribe: @escaping @Sendable () -> Void) {
            self.buffer = buffer
            self.unsubscribe = unsubscribe
        }

        deinit {
            buffer.cancel()
            unsubscribe()
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    /// Reads a ``ResultsUpdates`` sequence.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let subscription: Subscription

        /// The next batch; `nil` once the controller is gone or the task was cancelled.
        ///
        /// - Throws: the ``FetchKitError`` that stopped the controller.
        public mutating func next() async throws(FetchKitError) -> ResultsUpdate<Object>? {
            try await subscription.buffer.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchKitError) -> ResultsUpdate<Object>? {
            try await subscription.buffer.next()
        }
    }
}
