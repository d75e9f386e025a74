import Synchronization

/// A move installed in a view and queued for writing: what the move's caller awaits.
struct QueuedMove: Sendable {
    let completion: MoveCompletion
    /// Waits until the reader that made the move has finished with the batch showing its outcome.
    let reader: (@Sendable () async -> Void)?

    /// Waits for the write and the batch that shows its outcome; throws the write's error.
    func outcome() async throws {
        let result = await completion.result
        await reader?()
        try result.get()
    }
}

/// The outcome of a queued move, awaited by the caller of a view's move.
final class MoveCompletion: Sendable {
    private let state = Mutex<
        (result: Result<Void, any Error>?, waiters: [CheckedContinuation<Result<Void, any Error>, Never>])
    >(
        (nil, []))

    /// Records the outcome and wakes whoever waits for it.
    @Sendable func finish(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state in
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// The outcome, once the move has run.
    var result: Result<Void, any Error> {
        get async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> Result<Void, any Error>? in
                    if let result = state.result { return result }
                    state.waiters.append(continuation)
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        }
    }
}
