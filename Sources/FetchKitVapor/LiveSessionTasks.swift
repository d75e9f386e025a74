#if Vapor
    import Synchronization

    /// The application's running sessions, one task each, so that shutdown can end them all: ``stop(within:)``
    /// cancels every one (each then closes its socket with 1001) and waits until they have ended.
    final class LiveSessionTasks: Sendable {
        private struct State {
            var running: [UInt64: Task<Void, Never>] = [:]
            var nextID: UInt64 = 0
            var stopping = false
            /// Who waits for `running` to empty.
            var idle: [Signal] = []
        }

        private let state = Mutex(State())

        /// How many sessions run now.
        var count: Int { state.withLock { $0.running.count } }

        /// Runs `session` in a task of its own until it returns; once ``stop(within:)`` has begun, cancelled at once.
        func start(_ session: @escaping @Sendable () async -> Void) {
            state.withLock { state in
                let id = state.nextID
                state.nextID += 1
                // Registered before the lock is let go, so `finished` always finds it.
                let task = Task {
                    await session()
                    self.finished(id)
                }
                state.running[id] = task
                if state.stopping { task.cancel() }
            }
        }

        /// Cancels every session, and every one that starts from now on, then waits until all have ended or
        /// `timeout` has passed; returns how many still run (a client that reads nothing can hold its session's
        /// last send, and so its close, until the operating system gives up on it).
        func stop(within timeout: Duration) async -> Int {
            let running = state.withLock { state in
                state.stopping = true
                return Array(state.running.values)
            }
            for task in running { task.cancel() }
            let idle = Signal()
            let empty = state.withLock { state in
                if state.running.isEmpty { return true }
                state.idle.append(idle)
                return false
            }
            if !empty {
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    idle.fire()
                }
                await idle.wait()
                timer.cancel()
            }
            return count
        }

        private func finished(_ id: UInt64) {
            let idle = state.withLock { state -> [Signal] in
                state.running[id] = nil
                guard state.running.isEmpty else { return [] }
                defer { state.idle = [] }
                return state.idle
            }
            for signal in idle { signal.fire() }
        }
    }

    /// Fires once; ``wait()`` returns once it has fired, whether it waited before or after.
    private final class Signal: Sendable {
        private struct State {
            var fired = false
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())

        func fire() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.fired else { return nil }
                state.fired = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard !state.fired else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }
#endif
