import Logging
import Synchronization

/// The running sessions of an app, so that a graceful shutdown closes each with 1001 — its client reconnects,
/// and resumes in the next process when the ``ResumeStore`` is saved after the shutdown (``ResumeStore/save()``)
/// — before the store closes under them. The server products run it as part of the app's
/// lifecycle (a `Service` for Hummingbird, a lifecycle handler for Vapor).
///
/// ```swift
/// let sessions = LiveSessionGroup(gracePeriod: .seconds(5))
/// var todos = LiveResultsSession(store: store, request: request)
/// todos.sessions = sessions
/// // On shutdown, before the store closes:
/// await sessions.shutdown()
/// ```
public final class LiveSessionGroup: Sendable {
    private struct State {
        var closing = false
        var next = 0
        var closers: [Int: @Sendable () -> Void] = [:]
        var drained: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        /// Waiters whose grace period passed before they began to wait.
        var expired: Set<Int> = []
    }

    private let state = Mutex(State())
    private let logger: Logger

    /// How long ``shutdown()`` waits for the sessions to close: a client that reads nothing holds its session's
    /// last send, and so its close, until the operating system gives up on the connection.
    public let gracePeriod: Duration

    /// A group whose ``shutdown()`` waits at most `gracePeriod` for its sessions to close.
    public init(gracePeriod: Duration = .seconds(10), logger: Logger = Logger(label: "fetchkit.session")) {
        self.gracePeriod = gracePeriod
        self.logger = logger
    }

    /// How many sessions run now.
    public var count: Int { state.withLock { $0.closers.count } }

    /// Closes every running session with 1001 and returns once they have all ended, or once ``gracePeriod`` has
    /// passed; a session that starts afterwards closes at once with 1001. Returns how many still run (logged as
    /// a warning when any).
    @discardableResult
    public func shutdown() async -> Int {
        await shutdown(within: gracePeriod)
    }

    /// Closes every running session with 1001 and returns once they have all ended, or once `timeout` has
    /// passed; returns how many still run.
    @discardableResult
    public func shutdown(within timeout: Duration) async -> Int {
        let running = count
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.release(waiter)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (closers, done) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                state.closing = true
                if state.closers.isEmpty || state.expired.remove(waiter) != nil { return ([], true) }
                state.drained[waiter] = continuation
                return (Array(state.closers.values), false)
            }
            for close in closers { close() }
            if done { continuation.resume() }
        }
        timer.cancel()
        await timer.value
        state.withLock { _ = $0.expired.remove(waiter) }
        let left = count
        if left > 0 {
            logger.warning(
                "live results sessions still closing after the grace period",
                metadata: ["sessions": "\(left)", "gracePeriod": "\(timeout)"])
        } else if running > 0 {
            logger.debug("live results sessions closed", metadata: ["sessions": "\(running)"])
        }
        return left
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
            defer { state.drained = [:] }
            return Array(state.drained.values)
        }
        for waiter in drained { waiter.resume() }
    }

    /// The shutdown `waiter` stops waiting (its grace period passed).
    private func release(_ waiter: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let continuation = state.drained.removeValue(forKey: waiter) else {
                state.expired.insert(waiter)
                return nil
            }
            return continuation
        }
        continuation?.resume()
    }
}
