import Synchronization

/// One subscriber's batches waiting to be read: every batch while the reader keeps up, one coalesced batch
/// once it falls ``limit`` batches behind.
///
/// Coalescing keeps the snapshot the reader last received and the newest one, never the batches between
/// them, so a slow reader holds at most ``limit`` batches and two snapshots whatever the commit rate; the
/// batch between the two is found by the keyed diff when the reader asks for it, on the reader's task.
final class UpdateBuffer<Object: Sendable>: Sendable {
    /// Batches from `previous` to `snapshot` that were collapsed into one.
    struct Coalesced {
        var previous: ResultsSnapshot<Object>
        var snapshot: ResultsSnapshot<Object>
        var transactionID: UInt64?
        var transactions: ClosedRange<UInt64>?
        /// The reader has not received its first element (the current results) yet.
        var isInitial: Bool
    }

    struct State {
        var pending: [ResultsUpdate<Object>] = []
        var coalesced: Coalesced?
        var waiter: CheckedContinuation<Void, Never>?
        var isFinished = false
        var failure: FetchKitError?
        var coalescings = 0
        var largestBacklog = 0
    }

    /// How many batches may wait before they collapse into one.
    let limit: Int
    let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Adds `update` behind the waiting batches (or into the coalesced one); `true` when it started a
    /// coalesced batch (the backlog was full).
    @discardableResult
    func push(_ update: ResultsUpdate<Object>) -> Bool {
        var coalesced = false
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { return nil }
            if var collapsed = state.coalesced {
                collapsed.snapshot = update.snapshot
                collapsed.transactionID = update.transactionID ?? collapsed.transactionID
                collapsed.transactions = Self.merge(collapsed.transactions, update.transactions)
                state.coalesced = collapsed
            } else if state.pending.count >= limit, let first = state.pending.first {
                let transactions = state.pending.dropFirst().reduce(first.transactions) { Self.merge($0, $1.transactions) }
                state.coalesced = Coalesced(
                    previous: first.previous, snapshot: update.snapshot,
                    transactionID: update.transactionID ?? state.pending.last?.transactionID,
                    transactions: Self.merge(transactions, update.transactions), isInitial: first.changeset == nil)
                state.pending.removeAll()
                state.coalescings += 1
                coalesced = true
            } else {
                state.pending.append(update)
                state.largestBacklog = max(state.largestBacklog, state.pending.count)
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        return coalesced
    }

    /// Ends the sequence once the waiting batches are read: normally, or by throwing `failure`.
    func finish(throwing failure: FetchKitError? = nil) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.failure = failure
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Ends the sequence now, dropping what waits (the reader went away).
    func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isFinished = true
            state.failure = nil
            state.pending.removeAll()
            state.coalesced = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// What ``next()`` does after looking at the buffer.
    private enum Step { case update(ResultsUpdate<Object>), coalesced(Coalesced), end(FetchKitError?), wait }

    /// The next batch, waiting for one; `nil` at the end.
    ///
    /// - Throws: the failure that ended the sequence, after every batch before it was read.
    func next() async throws(FetchKitError) -> ResultsUpdate<Object>? {
        while true {
            let step = state.withLock { state -> Step in
                if !state.pending.isEmpty { return .update(state.pending.removeFirst()) }
                if let coalesced = state.coalesced {
                    state.coalesced = nil
                    return .coalesced(coalesced)
                }
                if state.isFinished {
                    defer { state.failure = nil }
                    return .end(state.failure)
                }
                return .wait
            }
            switch step {
            case .update(let update):
                return update
            case .coalesced(let coalesced):
                if let update = Self.batch(of: coalesced) { return update }
            case .end(let failure):
                if let failure { throw failure }
                return nil
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let ready = state.withLock { state -> Bool in
                            if !state.pending.isEmpty || state.coalesced != nil || state.isFinished { return true }
                            state.waiter = continuation
                            return false
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    cancel()
                }
            }
        }
    }

    /// The one batch that stands for `coalesced`; `nil` when the batches it replaced changed nothing in sum.
    private static func batch(of coalesced: Coalesced) -> ResultsUpdate<Object>? {
        if coalesced.isInitial {
            return ResultsUpdate(
                previous: coalesced.snapshot, snapshot: coalesced.snapshot, changeset: nil, transactionID: nil)
        }
        // Both snapshots were published by the controller, whose sections are valid: the diff cannot fail.
        guard let changeset = try? ResultsDiff.changeset(from: coalesced.previous, to: coalesced.snapshot),
            !changeset.isEmpty
        else { return nil }
        return ResultsUpdate(
            previous: coalesced.previous, snapshot: coalesced.snapshot, changeset: changeset,
            transactionID: coalesced.transactionID, transactions: coalesced.transactions)
    }

    private static func merge(_ a: ClosedRange<UInt64>?, _ b: ClosedRange<UInt64>?) -> ClosedRange<UInt64>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }
}
