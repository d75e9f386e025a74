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
/// results the reader last received to the newest ones (the batch ``ResultsBatch/init(from:to:transactionID:)`` would
/// build), so memory holds at most `bufferingLimit` batches and two snapshots. A collapsed batch names every
/// transaction it covers in ``ResultsBatch/transactions``.
///
/// **It ends by throwing** the ``FetchKitError`` that stopped the controller (a permanent failure, see
/// ``ResultsStatus/failed(_:)``), after the batches before the failure; it ends normally when the controller
/// goes away. Ending the iteration (or cancelling its task) unsubscribes.
public struct ResultsStream<Object: Sendable>: AsyncSequence, Sendable {
    public typealias Element = ResultsBatch<Object>
    public typealias Failure = FetchKitError

    let subscription: Subscription

    /// Unsubscribes when the last copy of the sequence and its iterator are gone.
    final class Subscription: Sendable {
        let buffer: UpdateBuffer<Object>
        let unsubscribe: @Sendable () -> Void
        /// Installs a move in this reader's view (`true`: the reader's UI already moved the row) and queues
        /// its write; `nil` when there is nothing to move.
        let move: @Sendable (MoveTarget, Bool) throws -> QueuedMove?

        init(
            buffer: UpdateBuffer<Object>, unsubscribe: @escaping @Sendable () -> Void,
            move: @escaping @Sendable (MoveTarget, Bool) throws -> QueuedMove?
        ) {
            self.buffer = buffer
            self.unsubscribe = unsubscribe
            self.move = move
        }

        deinit {
            buffer.cancel()
            unsubscribe()
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    /// Reads a ``ResultsStream`` sequence.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let subscription: Subscription

        /// The next batch; `nil` once the controller is gone or the task was cancelled.
        ///
        /// - Throws: the ``FetchKitError`` that stopped the controller.
        public mutating func next() async throws(FetchKitError) -> ResultsBatch<Object>? {
            try await next(isolation: nil)
        }

        /// The next batch, handed out on the caller's actor: a move the reader makes on that actor
        /// (``ResultsStream/userMovedRow(from:to:)``) falls before or after it, never between the batch
        /// leaving the buffer and the reader taking it.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchKitError) -> ResultsBatch<
            Object
        >? {
            let buffer = subscription.buffer
            while true {
                switch try buffer.poll() {
                case .element(let update): return update
                case .end: return nil
                case .empty: await buffer.waitForElement()
                }
            }
        }
    }
}

extension ResultsStream {
    /// Tells the controller that this sequence's reader has already moved a row in its UI — as a table view
    /// reports a drop — and writes the move.
    ///
    /// Call it on the reader's executor, between two elements (from a synchronous callback, through
    /// `Task.immediate`, which runs it up to its first suspension before returning): every element the reader
    /// receives afterwards starts from its UI with the row moved, whatever another writer commits before the
    /// move is written. It returns once the write is done and the reader has finished with the element that
    /// shows its outcome (none when the UI shows it already; the row moved back when the write failed, whose
    /// error it throws). The request must be sorted as ``ResultsController/moveObject(from:to:)`` requires.
    nonisolated(nonsending) public func userMovedRow(from: RowPath, to: RowPath) async throws {
        try await subscription.move(.paths(from: from, to: to), true)?.outcome()
    }

    /// As ``userMovedRow(from:to:)``, with both ends named by identity.
    nonisolated(nonsending) public func userMovedRow(withKey key: Value, to destination: MoveDestination)
        async throws
    {
        try await subscription.move(.key(key, destination), true)?.outcome()
    }

    /// Moves a row for a reader that shows only what it reads — a page fed over a network, which asked for a
    /// move and waits for it: the move is the element after those waiting (the reader shows it at once,
    /// whatever the database does meanwhile), then the write follows.
    ///
    /// It returns once the write is done and the reader has finished with every element that shows its
    /// outcome — the deletion of a section the move emptied, or the row moved back when the write failed,
    /// whose error it throws — so an acknowledgement sent after it follows them.
    ///
    /// ```swift
    /// let updates = controller.updates()
    /// // The page dropped card 7 just above card 3:
    /// try await updates.moveRow(withKey: 7, to: .before(3))
    /// send(.moved)   // after the batch that shows the move
    /// ```
    nonisolated(nonsending) public func moveRow(withKey key: Value, to destination: MoveDestination) async throws {
        try await subscription.move(.key(key, destination), false)?.outcome()
    }

    /// As ``moveRow(withKey:to:)``, with the row and its destination given by index paths in what the reader
    /// will show once it has read the elements waiting.
    nonisolated(nonsending) public func moveRow(from: RowPath, to: RowPath) async throws {
        try await subscription.move(.paths(from: from, to: to), false)?.outcome()
    }
}
