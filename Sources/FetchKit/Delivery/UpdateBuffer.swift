import Synchronization

/// One reader's view of a controller's results (``ReaderMachine``), under a lock with whoever waits on it: the
/// reader for its next element, and callers waiting until the reader has finished with a batch.
///
/// Each batch is handed out from what the reader shows (the results of the last batch it received): as it is
/// when that is the batch's previous results, else as the keyed diff from what the reader shows — after a
/// user move the reader made itself, or when batches were coalesced. Coalescing keeps only the newest results,
/// so a slow reader holds at most ``limit`` batches and two snapshots whatever the commit rate. While a move the
/// reader made waits to be written (``PendingMoves``), each batch leads to its results with the move applied.
final class UpdateBuffer<Object: Sendable>: Sendable {
    struct State {
        var machine: ReaderMachine<Object>
        var waiter: CheckedContinuation<Void, Never>?
        /// Callers waiting until the reader has finished with a push.
        var processedWaiters: [(number: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The waiters of pushes the reader has finished with.
        mutating func takeProcessed() -> [CheckedContinuation<Void, Never>] {
            guard !processedWaiters.isEmpty else { return [] }
            let processed = machine.processed
            let ready = processedWaiters.filter { $0.number <= processed }.map(\.continuation)
            processedWaiters.removeAll { $0.number <= processed }
            return ready
        }

        /// The reader's waiter, taken.
        mutating func takeWaiter() -> CheckedContinuation<Void, Never>? {
            defer { waiter = nil }
            return waiter
        }
    }

    /// How many batches may wait before they collapse into one.
    let limit: Int
    let state: Mutex<State>
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
        self.state = Mutex(State(machine: ReaderMachine(limit: limit)))
        self.reapply = reapply
        self.fail = fail
    }

    /// Adds `update` behind the waiting batches (or into the coalesced one); `true` when it started a
    /// coalesced batch (the backlog was full).
    @discardableResult
    func push(_ update: ResultsBatch<Object>) -> Bool {
        let (waiter, coalesced) = state.withLock { state in
            let (taken, coalesced) = state.machine.push(update)
            return (taken ? state.takeWaiter() : nil, coalesced)
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
        let (installed, waiter) = try state.withLock { state in
            let (installed, added) = try state.machine.applyMove(alreadyShown: alreadyShown, move)
            return (installed, added ? state.takeWaiter() : nil)
        }
        waiter?.resume()
        return installed
    }

    /// Forgets the reader's move `id` — it was written, or it failed — for the batches pushed from now on; those
    /// already waiting were computed before the move's outcome and are still handed out with it applied.
    func settleMove(_ id: Int) {
        state.withLock { $0.machine.settleMove(id) }
    }

    /// The number of the last push so far.
    var pushCount: Int { state.withLock { $0.machine.pushed } }

    /// Waits until the reader has finished with push `number` (it asked for the next element after it), or
    /// the sequence ended.
    func waitProcessed(through number: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.machine.processed >= number || state.machine.isFinished { return true }
                state.processedWaiters.append((number, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends the sequence once the waiting batches are read: normally, or by throwing `failure`.
    func finish(throwing failure: FetchKitError? = nil) {
        end { $0.finish(throwing: failure) }
    }

    /// Ends the sequence now, dropping what waits (the reader went away).
    func cancel() {
        end { machine in
            machine.cancel()
            return true
        }
    }

    /// Ends the sequence when `change` says so, and wakes the reader and whoever waits on it.
    private func end(_ change: (inout ReaderMachine<Object>) -> Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard change(&state.machine) else { return [] }
            defer { state.processedWaiters = [] }
            return (state.takeWaiter().map { [$0] } ?? []) + state.processedWaiters.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// What ``poll()`` found.
    enum Poll {
        case element(ResultsBatch<Object>)
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
            let (next, ready) = state.withLock { state in
                // The reader asked for the next element: it has finished with what it received.
                let next = state.machine.next()
                return (next, state.takeProcessed())
            }
            for waiter in ready { waiter.resume() }
            switch next {
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
        _ update: ResultsBatch<Object>, from base: ResultsSnapshot<Object>?, moves: PendingMoves
    ) throws(FetchKitError) -> ResultsBatch<Object>? {
        guard update.changeset != nil, let base else { return update }
        var target = update.snapshot
        var unplaced: Set<Value> = []
        if !moves.isEmpty {
            // Outside the lock (it reads the controller's request); the reader's executor runs both this and
            // the reader's own moves, so nothing changes what it shows meanwhile.
            let moved = reapply(update.snapshot, moves, base)
            (target, unplaced) = (moved.snapshot, moved.unplaced)
            state.withLock { $0.machine.showing(target, for: update.snapshot) }
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
                    if state.machine.hasNext { return true }
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
