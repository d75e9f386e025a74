/// Lets at most `limit` bodies run at once; the others wait their turn in order. The PostgreSQL tests use it
/// so that swift-testing's unbounded parallelism does not exceed the server's `max_connections` (every store
/// holds a writer, readers and a listener).
actor AsyncGate {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    /// Runs `body` once fewer than `limit` others are running.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        if running < limit {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { release() }
        return try await body()
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
