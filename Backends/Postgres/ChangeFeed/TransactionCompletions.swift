import FetchKitBackendKit
import Synchronization

/// The store's writes whose change the feed has not published yet: a write registers its server transaction ID
/// before `COMMIT` (``expect(_:)``) and returns at commit; the feed completes the ID when it publishes the
/// transaction (or reads past its commit in the log). ``PostgresStore/waitForPublication()`` — what
/// `controller.sync()` calls — waits until the writes expected so far are complete (``wait(for:timeout:)``), so
/// read-your-writes holds without a write waiting for its own echo. The wait is bounded: a feed whose server
/// process stopped answering must not hold every caller up.
final class TransactionCompletions: Sendable {
    /// A caller waiting until a set of transactions completes: resumed once, by the last completion or its timeout.
    private struct Barrier {
        var remaining: Set<Int64>
        var continuation: CheckedContinuation<Bool, Never>
        /// Its timeout, cancelled when it ends first.
        var timer: Task<Void, Never>?
    }

    private struct State {
        /// Transactions expected and not yet complete.
        var pending: Set<Int64> = []
        var barriers: [Int: Barrier] = [:]
        var nextBarrier = 0
        /// The trace of each expected transaction whose write was traced (``FetchKitTracing``).
        var traces: [Int64: TraceLinks] = [:]
    }

    private let state = Mutex(State())
    /// The logical feed's side: the log position after each expected transaction's commit, and the position up to
    /// which the feed has handed the log on (``complete(through:)``).
    private let positions = Mutex<(after: [Int64: LogPosition], reached: LogPosition)>(([:], .zero))
    /// The last marker handed out: markers count down from -1, never a server's transaction ID.
    private let lastMarker = Atomic<Int64>(0)

    /// A new marker: an ID no transaction has, to ``expect(_:trace:)`` and complete by position (a wait through
    /// a commit token).
    func nextMarker() -> Int64 { lastMarker.subtract(1, ordering: .relaxed).newValue }

    /// Registers transaction `id`, before its `COMMIT`, with the trace of the write, if any: the change the feed
    /// publishes for it joins that trace.
    func expect(_ id: Int64, trace: TraceLinks = TraceLinks()) {
        state.withLock { state in
            state.pending.insert(id)
            if !trace.isEmpty { state.traces[id] = trace }
        }
    }

    /// The trace of expected transaction `id`'s write (empty when it was not traced).
    func trace(of id: Int64) -> TraceLinks {
        state.withLock { $0.traces[id] } ?? TraceLinks()
    }

    /// Whether transaction `id` is a store write whose change is not published yet.
    func isExpected(_ id: Int64) -> Bool {
        state.withLock { $0.pending.contains(id) }
    }

    /// The transactions expected now.
    var expected: Set<Int64> {
        state.withLock { $0.pending }
    }

    /// Forgets transaction `id` (its commit failed).
    func cancel(_ id: Int64) {
        complete(id)
        positions.withLock { _ = $0.after.removeValue(forKey: id) }
    }

    /// Waits until every transaction of `ids` completed, at most `timeout`; returns whether they did (at once
    /// when none is still expected). After a timeout the transactions stay expected: a later wait, or the feed's
    /// ``complete(_:)``, still sees them.
    func wait(for ids: Set<Int64>, timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let barrier = state.withLock { state -> Int? in
                let remaining = ids.intersection(state.pending)
                guard !remaining.isEmpty else { return nil }
                let id = state.nextBarrier
                state.nextBarrier += 1
                state.barriers[id] = Barrier(remaining: remaining, continuation: continuation)
                return id
            }
            guard let barrier else {
                continuation.resume(returning: true)
                return
            }
            let timer = Task { [weak self] in
                // Throws only when cancelled: the barrier ended first, and there is nothing to expire.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.expire(barrier)
            }
            let ended = state.withLock { state -> Bool in
                guard state.barriers[barrier] != nil else { return true }
                state.barriers[barrier]?.timer = timer
                return false
            }
            if ended { timer.cancel() }
        }
    }

    /// Gives up the wait of `barrier` (it timed out), unless it already ended.
    private func expire(_ barrier: Int) {
        let expired = state.withLock { $0.barriers.removeValue(forKey: barrier) }
        expired?.continuation.resume(returning: false)
    }

    /// Forgets the transactions of `ids`: no caller waits for them any more (a resync covers them).
    func forget(_ ids: Set<Int64>) {
        for id in ids { complete(id) }
    }

    /// Marks transaction `id` complete (the feed published it).
    func complete(_ id: Int64) {
        let released = state.withLock { state -> [Barrier] in
            state.traces[id] = nil
            guard state.pending.remove(id) != nil else { return [] }
            var released: [Barrier] = []
            for (key, var barrier) in state.barriers where barrier.remaining.contains(id) {
                barrier.remaining.remove(id)
                if barrier.remaining.isEmpty {
                    state.barriers[key] = nil
                    released.append(barrier)
                } else {
                    state.barriers[key] = barrier
                }
            }
            return released
        }
        Self.release(released)
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

    /// Completes every expected transaction (the feed reconnected and published a resync, or stopped).
    func completeAll() {
        let released = state.withLock { state -> [Barrier] in
            state.pending.removeAll()
            state.traces.removeAll()
            defer { state.barriers.removeAll() }
            return Array(state.barriers.values)
        }
        positions.withLock { $0.after.removeAll() }
        Self.release(released)
    }

    /// Resumes the callers of `barriers`: their transactions completed.
    private static func release(_ barriers: [Barrier]) {
        for barrier in barriers {
            barrier.timer?.cancel()
            barrier.continuation.resume(returning: true)
        }
    }
}
