import Synchronization

/// A caller waiting for one of a controller's commands (`performFetch`, `setRequest`, `moveObject`), and
/// whether its task was cancelled while the command waited its turn.
///
/// A command cancelled before it starts is skipped and its caller gets `CancellationError`; one that has
/// started runs to its end, so the results, the request and the delegate's view never stay half-changed.
final class ControllerRequest: Sendable {
    /// Set by the caller's cancellation handler.
    final class Cancellation: Sendable {
        private let flag = Atomic<Bool>(false)
        func cancel() { flag.store(true, ordering: .relaxed) }
        var isCancelled: Bool { flag.load(ordering: .relaxed) }
    }

    private let continuation: Mutex<CheckedContinuation<Void, any Error>?>
    private let cancellation: Cancellation

    init(_ continuation: CheckedContinuation<Void, any Error>, cancellation: Cancellation) {
        self.continuation = Mutex(continuation)
        self.cancellation = cancellation
    }

    /// Whether the caller's task was cancelled before the command started; when it was, the caller has been
    /// resumed with `CancellationError`.
    func skipIfCancelled() -> Bool {
        guard cancellation.isCancelled else { return false }
        resume(with: .failure(CancellationError()))
        return true
    }

    /// Resumes the caller with `result` (once).
    func resume(with result: Result<Void, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }

    func resume() { resume(with: .success(())) }
    func resume(throwing error: any Error) { resume(with: .failure(error)) }
}

extension ResultsController {
    /// Queues the command `make` builds for this call and waits for it, honouring the caller's cancellation:
    /// a task cancelled before the call, or while the command waits its turn, gets `CancellationError` and
    /// the command does nothing.
    func perform(_ make: (ControllerRequest) -> ControllerCommand) async throws {
        try Task.checkCancellation()
        let cancellation = ControllerRequest.Cancellation()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enqueue(make(ControllerRequest(continuation, cancellation: cancellation)))
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
