/// Runs one body at a time, in arrival order.
actor TransitionLock {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every body that arrived before it has finished; throws only what `body` throws.
    func run<Failure: Error>(_ body: @Sendable () async throws(Failure) -> Void) async throws(Failure) {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        try await body()
    }
}
