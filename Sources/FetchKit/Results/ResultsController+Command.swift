/// The work a controller does, one command at a time and in order (see ``ResultsController/enqueue(_:)``).
///
/// Not generic over the object type: a server queues one command per follower of a shared request for every
/// write, and a non-generic queue runs without looking generic types up at run time.
enum ControllerCommand: Sendable {
    /// A change the router handed over.
    case routed(RoutedChange)
    /// `sync()`: resumed when every command before it has run (and the controller is not stale).
    case barrier(CheckedContinuation<Void, Never>)
    /// A stale controller's next attempt to refetch.
    case retry
    /// A batch of the shared results this controller follows (a ``ResultsUpdate`` as
    /// ``ResultsUpdate/erased``), with its version.
    case adopt(any AnyObject & Sendable, version: UInt64, group: ObjectIdentifier)
    /// The leader of the shared results left: this follower takes over.
    case promote
    /// ``ResultsController/performFetch()``.
    case performFetch(CheckedContinuation<Void, any Error>)
    /// ``ResultsController/setRequest(_:)``.
    case setRequest(FetchRequest, CheckedContinuation<Void, any Error>)
    /// ``ResultsController/moveObject(at:to:)`` and its key-based forms.
    case moveObject(MoveTarget, CheckedContinuation<Void, any Error>)
}

/// The commands waiting to run, and whether a task is running them.
struct ControllerCommandQueue: ~Copyable {
    var pending: [ControllerCommand] = []
    var head = 0
    var isDraining = false
}
