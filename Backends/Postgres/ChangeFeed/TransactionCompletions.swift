import Synchronization

/// Writes waiting until the listener has published their transaction: a write registers its server
/// transaction ID before `COMMIT` (``expect(_:)``), the listener completes it when the end marker arrives,
/// and the write then awaits it (``wait(for:timeout:)``) — so when `write` returns, its change has reached every
/// ``PostgresStore/changes()`` subscriber, as on SQLite. The wait is bounded: a listener whose server
/// process stopped answering must not hold every write up.
final class TransactionCompletions: Sendable {
    private enum Entry {
        case pending(Waiter?)
        case done
    }

    /// A waiting write: resumed once, by the listener or by its timeout, whichever comes first.
    private final class Waiter: Sendable {
        private let state: Mutex<(continuation: CheckedContinuation<Bool, Never>?, timer: Task<Void, Never>?)>

        init(_ continuation: CheckedContinuation<Bool, Never>) {
            state = Mutex((continuation, nil))
        }

        /// Resumes the write with `completed` (the first call only) and cancels its timer.
        func resume(_ completed: Bool) {
            let (continuation, timer) = state.withLock { state in
                defer { state = (nil, nil) }
                return state
            }
            timer?.cancel()
            continuation?.resume(returning: completed)
        }

        /// Cancels `timer` when the write resumes (at once if it already has).
        func cancelsOnResume(_ timer: Task<Void, Never>) {
            let resumed = state.withLock { state -> Bool in
                guard state.continuation != nil else { return true }
                state.timer = timer
                return false
            }
            if resumed { timer.cancel() }
        }
    }

    private let entries = Mutex<[Int64: Entry]>([:])
    /// The logical feed's side: the log position after each expected transaction's commit, and the position up to
    /// which the feed has handed the log on (``complete(through:)``).
    private let positions = Mutex<(after: [Int64: LogPosition], reached: LogPosition)>(([:], .zero))

    /// Registers transaction `id`, before its `COMMIT`.
    func expect(_ id: Int64) {
        entries.withLock { $0[id] = .pending(nil) }
    }

    /// Whether transaction `id` is a store write still waiting for its end marker.
    func isExpected(_ id: Int64) -> Bool {
        entries.withLock { entries in
            if case .pending? = entries[id] { return true }
            return false
        }
    }

    /// Forgets transaction `id` (its commit failed).
    func cancel(_ id: Int64) {
        let waiter = entries.withLock { entries -> Waiter? in
            defer { entries[id] = nil }
            if case .pending(let waiter)? = entries[id] { return waiter }
            return nil
        }
        waiter?.resume(true)
    }

    /// Waits until transaction `id` completed, at most `timeout`; returns whether it did (at once if it
    /// already had, or was never expected). After a timeout the transaction stays expected: a later wait, or
    /// the listener's ``complete(_:)``, still sees it.
    func wait(for id: Int64, timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiter = Waiter(continuation)
            let resumeNow = entries.withLock { entries -> Bool in
                guard case .pending? = entries[id] else {
                    entries[id] = nil
                    return true
                }
                entries[id] = .pending(waiter)
                return false
            }
            if resumeNow {
                waiter.resume(true)
                return
            }
            let timer = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                self?.expire(id, waiter)
            }
            waiter.cancelsOnResume(timer)
        }
    }

    /// Gives up waiting for transaction `id` (the wait of `waiter` timed out); it stays expected.
    private func expire(_ id: Int64, _ waiter: Waiter) {
        let expired = entries.withLock { entries -> Bool in
            guard case .pending(let current)? = entries[id], current === waiter else { return false }
            entries[id] = .pending(nil)
            return true
        }
        if expired { waiter.resume(false) }
    }

    /// Forgets transaction `id`: its write stopped waiting.
    func forget(_ id: Int64) {
        entries.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Marks transaction `id` complete (the listener read its end marker).
    func complete(_ id: Int64) {
        let waiter = entries.withLock { entries -> Waiter? in
            guard case .pending(let waiter)? = entries[id] else { return nil }
            if waiter != nil {
                entries[id] = nil
            } else {
                entries[id] = .done
            }
            return waiter
        }
        waiter?.resume(true)
    }

    /// Records that transaction `id` committed before log position `position` (the logical feed): it completes
    /// once the feed has handed the log on up to there, even when its commit carries no change the feed
    /// publishes — at once if the feed is already past it.
    func committed(_ id: Int64, before position: LogPosition) {
        let passed = positions.withLock { positions -> Bool in
            guard position > positions.reached else {
                return true
            }
            positions.after[id] = position
            return false
        }
        if passed { complete(id) }
    }

    /// Completes every transaction that committed before `position` (the logical feed has handed the log on up
    /// to there).
    ///
    /// - Complexity: O(w) for the w transactions with a recorded position.
    func complete(through position: LogPosition) {
        let done = positions.withLock { positions -> [Int64] in
            positions.reached = max(positions.reached, position)
            let done = positions.after.filter { $0.value <= position }.map(\.key)
            for id in done { positions.after[id] = nil }
            return done
        }
        for id in done { complete(id) }
    }

    /// Completes every expected transaction (the listener reconnected and published a resync, or stopped).
    func completeAll() {
        let waiters = entries.withLock { entries -> [Waiter] in
            // Forgetting an entry makes a later wait(for:timeout:) return at once.
            let waiters = entries.values.compactMap { entry -> Waiter? in
                if case .pending(let waiter) = entry { return waiter }
                return nil
            }
            entries.removeAll()
            return waiters
        }
        positions.withLock { $0.after.removeAll() }
        for waiter in waiters { waiter.resume(true) }
    }
}
