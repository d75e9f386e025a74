import Synchronization

/// Who hears a results controller, and who waits on it: its delegate and the actor the delegate runs on, the
/// readers of its update and status sequences, the `sync()` calls a stale controller holds, and its pending
/// retry — part of ``ControllerMachine``'s one value, changed only by its events.
///
/// The machine holds them as it holds its results: it decides who receives what, and its actions carry the
/// readers, waiters and tasks the interpreter resumes, yields to or cancels — so nothing outside the machine
/// edits them.
struct ControllerAudience<Object: Sendable> {
    // First, close together: what a follower of shared results reads for each batch it delivers.
    /// The delegate, held weakly (like NSFetchedResultsController's).
    weak var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?
    /// The actor the delegate's callbacks run on (``ResultsController/setDelegate(_:isolation:)``).
    var delegateActor: (any Actor)?
    /// The readers of ``ResultsController/updates(bufferingLimit:)``.
    var subscribers: UpdateSubscribers<Object>?
    /// The update readers that subscribed before the first fetch: the first publication gives them the results.
    var awaitingInitial: Set<Int> = []
    /// The readers of ``ResultsController/statusUpdates()``.
    var statusReaders: [Int: AsyncStream<ResultsStatus>.Continuation] = [:]
    /// The `sync()` calls waiting for a stale controller to catch up.
    var heldSyncs: [SyncWaiter] = []
    /// The pending retry of a stale controller (``ControllerMachine/Action/scheduleRetry(after:replacing:)``).
    var retry: Task<Void, Never>?

    /// Whether the update sequences' readers need nothing of a publication but its batch: none subscribed, none
    /// waiting for the first results.
    var hasNoReaders: Bool { subscribers == nil && awaitingInitial.isEmpty }
}

/// A `sync()` call waiting for a controller: resumed once, by the interpreter, when the machine says so.
struct SyncWaiter: Sendable {
    let resume: @Sendable () -> Void

    init(_ continuation: CheckedContinuation<Void, Never>) {
        resume = { continuation.resume() }
    }

    /// A waiter that runs `resume` (for tests of the machine).
    init(resume: @escaping @Sendable () -> Void) {
        self.resume = resume
    }
}

/// IDs for the readers of a controller's sequences: unique in the process, so no controller keeps a counter.
enum ReaderID {
    private static let last = Atomic<Int>(0)

    /// A new ID.
    static func next() -> Int { last.wrappingAdd(1, ordering: .relaxed).newValue }
}
