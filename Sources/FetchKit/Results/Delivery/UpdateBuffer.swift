import Synchronization

/// One reader's view of a controller's results: the batches waiting to be read — every batch while the reader
/// keeps up, one coalesced batch once it falls ``limit`` batches behind — and what the reader shows.
///
/// Each batch is handed out from what the reader shows (the results of the last batch it received): as it is
/// when that is the batch's previous results, else as the keyed diff from what the reader shows — after a
/// user move the reader made itself, or when batches were coalesced. Coalescing keeps only the newest results,
/// so a slow reader holds at most ``limit`` batches and two snapshots whatever the commit rate. While a move the
/// reader made waits to be written (``PendingMoves``), each batch leads to its results with the move applied.
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
        /// The moves the reader made that are not written yet.
        var moves = PendingMoves()
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
    /// The results with the reader's waiting moves applied, for a reader showing the last snapshot
    /// (``ResultsController/results(_:with:request:view:)``).
    private let reapply:
        @Sendable (ResultsSnapshot<Object>, PendingMoves, ResultsSnapshot<Object>) -> MovedResults<Object>
    /// Stops the controller when a batch for this reader cannot be built (``ResultsController/failDelivery``),
    /// returning the error it stopped with.
    private let fail: @Sendable (any Error) -> FetchKitError

    init(
        limit: Int,
        reapply:
            @escaping @Sendable (ResultsSnapshot<Object>, PendingMoves, ResultsSnapshot<Object>) -> MovedResults<
                Object
            > = { results, _, _ in MovedResults(snapshot: results) },
        fail: @escaping @Sendable (any Error) -> FetchKitError = { FetchKitError.inconsistency("\($0)") }
    ) {
        self.limit = max(1, limit)
        self.reapply = reapply
        self.fail = fail
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

    /// Moves a row in what the reader shows, with `move` planning the move from `base` (`nil`: the row stays):
    /// when `alreadyShown`, the reader already shows the move (its UI moved the row), otherwise the move enters
    /// the sequence as the element after those waiting. The move then waits in the reader's view until
    /// ``settleMove(_:)``; returns its identifier and the move by identity.
    ///
    /// `move` runs under the buffer's lock, so that no batch slips between the results it starts from and
    /// the move.
    func applyMove(
        alreadyShown: Bool,
        _ move: (ResultsSnapshot<Object>) throws -> (
            shown: ResultsSnapshot<Object>, key: Value, destination: MoveDestination
        )?
    ) throws -> (id: Int, key: Value, destination: MoveDestination)? {
        var installed: (id: Int, key: Value, destination: MoveDestination)?
        let waiter = try state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { throw FetchKitError.unsupported("the update sequence has ended") }
            if alreadyShown {
                guard let shown = state.shown else {
                    throw FetchKitError.unsupported("the reader moved a row before it received the results")
                }
                guard let plan = try move(shown) else { return nil }
                state.shown = plan.shown
                installed = (state.moves.add(key: plan.key, destination: plan.destination), plan.key, plan.destination)
                return nil
            }
            guard let base = state.tail else {
                throw FetchKitError.unsupported("a move before the update sequence has the results")
            }
            guard let plan = try move(base) else { return nil }
            let moved = plan.shown
            installed = (state.moves.add(key: plan.key, destination: plan.destination), plan.key, plan.destination)
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
        return installed
    }

    /// Forgets the reader's move `id` — it was written, or it failed — for the batches pushed from now on; those
    /// already waiting were computed before the move's outcome and are still handed out with it applied.
    func settleMove(_ id: Int) {
        state.withLock { state in
            state.moves.settle(id, after: state.pushed)
            state.moves.prune(through: state.handedThrough)
        }
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
        /// Hand out `update` (the results of the element, and what it covers) to a reader showing `base`,
        /// with `moves` waiting.
        case element(ResultsUpdate<Object>, base: ResultsSnapshot<Object>?, moves: PendingMoves)
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
    /// - Throws: the failure that ended the sequence, after every batch before it was read; an
    ///   ``FetchKitError/Code/inconsistency`` error, which also stops the controller, when a batch cannot be
    ///   built.
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
                    let moves = state.moves.waiting(at: next.number)
                    state.moves.prune(through: next.number)
                    return .element(next.update, base: base, moves: moves)
                }
                if let coalesced = state.coalesced {
                    state.coalesced = nil
                    let base = state.shown
                    state.shown = coalesced.snapshot
                    state.handedThrough = coalesced.through
                    let moves = state.moves.waiting(at: coalesced.through)
                    state.moves.prune(through: coalesced.through)
                    guard !coalesced.isInitial, base != nil else {
                        let initial = ResultsUpdate(
                            previous: coalesced.snapshot, snapshot: coalesced.snapshot, changeset: nil,
                            transactionID: nil)
                        return .element(initial, base: nil, moves: moves)
                    }
                    // The one batch from what the reader shows to the newest results is the diff between them
                    // (``ResultsUpdate/rebased(from:to:)``): the previous results and changeset here only stand in.
                    let collapsed = ResultsUpdate(
                        previous: coalesced.snapshot, snapshot: coalesced.snapshot,
                        changeset: Changeset(sectionCountsBefore: [], sectionCountsAfter: []),
                        transactionID: coalesced.transactionID, transactions: coalesced.transactions)
                    return .element(collapsed, base: base, moves: moves)
                }
                if state.isFinished {
                    defer { state.failure = nil }
                    return .end(state.failure)
                }
                return .wait
            }
            for waiter in ready { waiter.resume() }
            switch step {
            case .element(let update, let base, let moves):
                if let batch = try batch(update, from: base, moves: moves) { return .element(batch) }
            case .end(let failure):
                if let failure { throw failure }
                return .end
            case .wait:
                return .empty
            }
        }
    }

    /// `update` for a reader showing `base`: the first element as it is; a batch from `base` to the element's
    /// results with the reader's waiting `moves` applied (what the reader shows afterwards); `nil` when that
    /// changes nothing.
    private func batch(
        _ update: ResultsUpdate<Object>, from base: ResultsSnapshot<Object>?, moves: PendingMoves
    ) throws(FetchKitError) -> ResultsUpdate<Object>? {
        guard update.changeset != nil, let base else { return update }
        var target = update.snapshot
        var unplaced: Set<Value> = []
        if !moves.isEmpty {
            // Outside the lock (it reads the controller's request); the reader's executor runs both this and
            // the reader's own moves, so nothing changes what it shows meanwhile.
            let moved = reapply(update.snapshot, moves, base)
            target = moved.snapshot
            unplaced = moved.unplaced
            state.withLock { state in
                if state.shown?.isIdentical(to: update.snapshot) == true { state.shown = target }
            }
        }
        do {
            return try update.rebased(from: base, to: target, movingFirst: unplaced)
        } catch {
            throw fail(error)
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

    private static func merge(_ a: ClosedRange<UInt64>?, _ b: ClosedRange<UInt64>?) -> ClosedRange<UInt64>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }
}
