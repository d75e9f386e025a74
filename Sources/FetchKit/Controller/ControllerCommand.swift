/// The work a controller does, one command at a time and in order (see ``ResultsController/enqueue(_:)``).
///
/// Not generic over the object type: a server queues one command per follower of a shared request for every
/// write, and a non-generic queue runs without looking generic types up at run time.
enum ControllerCommand: Sendable {
    /// A change the router handed over.
    case routed(RoutedChange)
    /// `count` routed changes, through transaction `through`, the oldest published at `since`, collapsed into
    /// one refetch: a resync arrived while the controller was behind (see ``ControllerCommandQueue``).
    case catchUp(count: Int, through: UInt64, since: ContinuousClock.Instant)
    /// `sync()`: resumed when every command before it has run (and the controller is not stale).
    case barrier(CheckedContinuation<Void, Never>)
    /// A stale controller's next attempt to refetch.
    case retry
    /// A batch of the shared results this controller follows (a ``ResultsBatch`` as
    /// ``ResultsBatch/erased``), with its version.
    case adopt(any AnyObject & Sendable, version: UInt64, group: ObjectIdentifier, since: ContinuousClock.Instant?)
    /// The leader of the shared results left: this follower takes over.
    case promote
    /// The leader of the shared results this controller follows stopped with a permanent failure, or the store
    /// closed.
    case fail(FetchKitError)
    /// The store's feed delivers again (``FeedDelivery/streaming``), and every change routed before is applied.
    case feedResumed(id: UInt64)
    /// A test holds the queue (``ResultsController/holdProcessing()``): `started` resumes, then nothing runs
    /// until `released` completes.
    case hold(started: CheckedContinuation<Void, Never>, released: MoveCompletion)
    /// ``ResultsController/performFetch()``.
    case performFetch(ControllerRequest)
    /// ``ResultsController/setRequest(_:)``.
    case setRequest(AnyFetchRequest, ControllerRequest)
    /// ``ResultsController/moveObject(at:to:)`` and its key-based forms.
    case moveObject(MoveTarget, ControllerRequest)
    /// A move a view of the results made (``ResultsController/userMovedRow(from:to:)``, an update sequence's
    /// moves): written, then `settle` forgets it in the view that made it (its batches no longer apply it), every
    /// view is brought back to the results, and `done` gets the outcome.
    case viewMove(
        MoveTarget, settle: @Sendable () -> Void, done: @Sendable (Result<Void, any Error>) -> Void)
}
