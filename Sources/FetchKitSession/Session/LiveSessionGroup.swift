import Synchronization

/// The running sessions of an app, so that a graceful shutdown closes each with 1001 — its client reconnects,
/// and resumes in the next process when the ``ResumeStore`` is saved after the shutdown (``ResumeStore/save()``)
/// — before the store closes under them. The server products run it as part of the app's
/// lifecycle (a `Service` for Hummingbird, a lifecycle handler for Vapor).
///
/// ```swift
/// let sessions = LiveSessionGroup()
/// let todos = LiveResultsSession(store: store, request: request, sessions: sessions)
/// // On shutdown, before the store closes:
/// await sessions.shutdown()
/// ```
public final class LiveSessionGroup: Sendable {
    private struct State {
        var closing = false
        var next = 0
        var closers: [Int: @Sendable () -> Void] = [:]
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// How many sessions run now.
    public var count: Int { state.withLock { $0.closers.count } }

    /// Closes every running session with 1001 and returns once they have all ended; a session that starts
    /// afterwards closes at once with 1001.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (closers, done) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                state.closing = true
                if state.closers.isEmpty { return ([], true) }
                state.drained.append(continuation)
                return (Array(state.closers.values), false)
            }
            for close in closers { close() }
            if done { continuation.resume() }
        }
    }

    /// Registers a session that `close` closes; `nil` once the group is shutting down.
    func join(closing close: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.closing else { return nil }
            state.next += 1
            state.closers[state.next] = close
            return state.next
        }
    }

    /// The session `id` ended.
    func leave(_ id: Int) {
        let drained = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.closers[id] = nil
            guard state.closers.isEmpty else { return [] }
            defer { state.drained = [] }
            return state.drained
        }
        for waiter in drained { waiter.resume() }
    }
}
