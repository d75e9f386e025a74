import Synchronization

/// One reader's view of a controller's results: the batches waiting to be read — every batch while the reader
/// keeps up, one coalesced batch once it falls ``limit`` batches behind — and what the reader shows.
///
/// Each batch is handed out from what the reader shows (the results of the last batch it received): as it is
/// when that is the batch's previous results, else as the keyed diff from what the reader shows — after a
/// user move the reader made itself, or when batches were coalesced. Coalescing keeps only the newest results,
/// so a slow reader holds at most ``limit`` batches and two snapshots whatever the commit rate.
final class UpdateBuffer<Object: Sendable>: Sendable {
    /// Batches collapsed into one: the newest results and what they cover.
    struct Coalesced {
        var snapshot: ResultsSnapshot<Object>
        var transactionID: UInt64?
        var transactions: ClosedRange<UInt64>?
        /// The reader has not received its first element (the current results) yet.
        var isInitial: Bool
        /// The number of the last push it covers.
        var through: Int
    }

    struct Pending {
        var update: ResultsUpdate<Object>
        /// The push's number (pushes are numbered from 1).
        var number: Int
    }

    struct State {
        var pending: [Pending] = []
        var coalesced: Coalesced?
        /// What the reader shows: the results of the last element handed out, or of a move it made itself.
        var shown: ResultsSnapshot<Object>?
        var waiter: CheckedContinuation<Void, Never>?
        var isFinished = false
        var failure: FetchKitError?
        /// Pushes so far; the number of the last push handed out (or skipped); the number through which the
        /// reader has finished (it asked for the next element after it).
        var pushed = 0
        var handedThrough = 0
        var processed = 0
        /// Callers waiting until the reader has finished with a push.
        var processedWaiters: [(number: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The results the reader will show once it has read every waiting element.
        var tail: ResultsSnapshot<Object>? { coalesced?.snapshot ?? pending.last?.update.snapshot ?? shown }

        /// Marks everything handed out as finished with; returns the waiters to resume.
        mutating func finishHandedOut() -> [CheckedContinuation<Void, Never>] {
            processed = handedThrough
            guard !processedWaiters.isEmpty else { return [] }
            let ready = processedWaiters.filter { $0.number <= processed }.map(\.continuation)
            processedWaiters.removeAll { $0.number <= processed }
            return ready
        }
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
            state.pushed += 1
            let number = state.pushed
            if var collapsed = state.coalesced {
                collapsed.snapshot = update.snapshot
                collapsed.transactionID = update.transactionID ?? collapsed.transactionID
                collapsed.transactions = Self.merge(collapsed.transactions, update.transactions)
                collapsed.through = number
                state.coalesced = collapsed
            } else if state.pending.count >= limit, let first = state.pending.first {
                let transactions = state.pending.reduce(nil) { Self.merge($0, $1.update.transactions) }
                state.coalesced = Coalesced(
                    snapshot: update.snapshot,
                    transactionID: update.transactionID ?? state.pending.last?.update.transactionID,
                    transactions: Self.merge(transactions, update.transactions),
                    isInitial: first.update.changeset == nil, through: number)
                state.pending.removeAll()
                coalesced = true
            } else {
                state.pending.append(Pending(update: update, number: number))
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        return coalesced
    }

    /// Moves a row in what the reader shows, with `move` computing the moved results from `base`: when
    /// `shown`, the reader already shows the move (its UI moved the row), otherwise the move enters the
    /// sequence as the element after those waiting.
    ///
    /// `move` runs under the buffer's lock, so that no batch slips between the results it starts from and
    /// the move.
    func applyMove(
        alreadyShown: Bool, _ move: (ResultsSnapshot<Object>) throws -> ResultsSnapshot<Object>
    ) throws {
        let waiter = try state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { throw FetchKitError.unsupported("the update sequence has ended") }
            if alreadyShown {
                guard let shown = state.shown else {
                    throw FetchKitError.unsupported("the reader moved a row before it received the results")
                }
                state.shown = try move(shown)
                return nil
            }
            guard let base = state.tail else {
                throw FetchKitError.unsupported("a move before the update sequence has the results")
            }
            let moved = try move(base)
            let changeset = try ResultsDiff.changeset(from: base, to: moved)
            state.pushed += 1
            let update = ResultsUpdate(previous: base, snapshot: moved, changeset: changeset, transactionID: nil)
            if var collapsed = state.coalesced {
                collapsed.snapshot = moved
                collapsed.through = state.pushed
                state.coalesced = collapsed
            } else {
                state.pending.append(Pending(update: update, number: state.pushed))
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The number of the last push so far.
    var pushCount: Int { state.withLock { $0.pushed } }

    /// Waits until the reader has finished with push `number` (it asked for the next element after it), or
    /// the sequence ended.
    func waitProcessed(through number: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.processed >= number || state.isFinished { return true }
                state.processedWaiters.append((number, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends the sequence once the waiting batches are read: normally, or by throwing `failure`.
    func finish(throwing failure: FetchKitError? = nil) {
        end { state in
            guard !state.isFinished else { return false }
            state.failure = failure
            return true
        }
    }

    /// Ends the sequence now, dropping what waits (the reader went away).
    func cancel() {
        end { state in
            state.failure = nil
            state.pending.removeAll()
            state.coalesced = nil
            return true
        }
    }

    /// Ends the sequence when `change` says so, and wakes the reader and whoever waits on it.
    private func end(_ change: (inout State) -> Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard change(&state) else { return [] }
            state.isFinished = true
            defer {
                state.waiter = nil
                state.processedWaiters = []
            }
            return (state.waiter.map { [$0] } ?? []) + state.processedWaiters.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// What ``poll()`` does after looking at the buffer.
    private enum Step {
        case update(ResultsUpdate<Object>, base: ResultsSnapshot<Object>?)
        case coalesced(Coalesced, base: ResultsSnapshot<Object>?)
        case end(FetchKitError?)
        case wait
    }

    /// What ``poll()`` found.
    enum Poll {
        case element(ResultsUpdate<Object>)
        case end
        case empty
    }

    /// The next batch, from what the reader shows, if one waits — called on the reader's executor, so that
    /// handing the batch out and the reader taking it happen in one turn (no move of the reader's can slip
    /// between them).
    ///
    /// - Throws: the failure that ended the sequence, after every batch before it was read.
    func poll() throws(FetchKitError) -> Poll {
        while true {
            var ready: [CheckedContinuation<Void, Never>] = []
            let step = state.withLock { state -> Step in
                // The reader asked for the next element: it has finished with what it received.
                ready = state.finishHandedOut()
                if !state.pending.isEmpty {
                    let next = state.pending.removeFirst()
                    let base = state.shown
                    state.shown = next.update.snapshot
                    state.handedThrough = next.number
                    return .update(next.update, base: base)
                }
                if let coalesced = state.coalesced {
                    state.coalesced = nil
                    let base = state.shown
                    state.shown = coalesced.snapshot
                    state.handedThrough = coalesced.through
                    return .coalesced(coalesced, base: base)
                }
                if state.isFinished {
                    defer { state.failure = nil }
                    return .end(state.failure)
                }
                return .wait
            }
            for waiter in ready { waiter.resume() }
            switch step {
            case .update(let update, let base):
                if let batch = Self.batch(update, from: base) { return .element(batch) }
            case .coalesced(let coalesced, let base):
                if let batch = Self.batch(of: coalesced, from: base) { return .element(batch) }
            case .end(let failure):
                if let failure { throw failure }
                return .end
            case .wait:
                return .empty
            }
        }
    }

    /// Waits until a batch waits, the sequence ends, or the task is cancelled (which ends it).
    func waitForElement() async {
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

    /// `update` from `base`, what the reader showed: as it is when `base` is its previous results (or it is
    /// the first element), else the diff from `base`; `nil` when that changes nothing.
    private static func batch(_ update: ResultsUpdate<Object>, from base: ResultsSnapshot<Object>?) -> ResultsUpdate<
        Object
    >? {
        guard update.changeset != nil, let base else { return update }
        if base.isIdentical(to: update.previous) { return update.changeset?.isEmpty == false ? update : nil }
        // Both sides are results the controller published, or a user move of them: the diff cannot fail.
        guard let changeset = try? ResultsDiff.changeset(from: base, to: update.snapshot), !changeset.isEmpty else {
            return nil
        }
        return ResultsUpdate(
            previous: base, snapshot: update.snapshot, changeset: changeset, transactionID: update.transactionID,
            transactions: update.transactions)
    }

    /// The one batch that stands for `coalesced`, from `base`; `nil` when the batches it replaced changed
    /// nothing in sum.
    private static func batch(of coalesced: Coalesced, from base: ResultsSnapshot<Object>?) -> ResultsUpdate<Object>? {
        guard !coalesced.isInitial, let base else {
            return ResultsUpdate(
                previous: coalesced.snapshot, snapshot: coalesced.snapshot, changeset: nil, transactionID: nil)
        }
        guard let changeset = try? ResultsDiff.changeset(from: base, to: coalesced.snapshot), !changeset.isEmpty
        else { return nil }
        return ResultsUpdate(
            previous: base, snapshot: coalesced.snapshot, changeset: changeset,
            transactionID: coalesced.transactionID, transactions: coalesced.transactions)
    }

    private static func merge(_ a: ClosedRange<UInt64>?, _ b: ClosedRange<UInt64>?) -> ClosedRange<UInt64>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }
}
