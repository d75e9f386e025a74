/// One update-sequence reader's view of a controller's results, without its I/O: the batches waiting to be
/// read — every batch while the reader keeps up, one coalesced batch once it falls ``limit`` batches behind —
/// what the reader shows, and the moves it made that are not written yet.
///
/// ``UpdateBuffer`` holds it under a lock with the continuations of whoever waits, tells it what happened
/// (a batch pushed, a move the reader made, a move settled, the reader asking for the next element, the
/// sequence ending) and wakes the waiters it names. The controller's state machine (``ControllerMachine``)
/// does the same for the delegate's view; tests walk both without a database.
struct ReaderMachine<Object: Sendable>: Sendable {
    /// Batches collapsed into one: the newest results and what they cover.
    struct Coalesced: Sendable {
        var snapshot: ResultsSnapshot<Object>
        var transactionID: UInt64?
        var transactions: ClosedRange<UInt64>?
        /// The reader has not received its first element (the current results) yet.
        var isInitial: Bool
        /// The number of the last push it covers.
        var through: Int
    }

    struct Pending: Sendable {
        var update: ResultsBatch<Object>
        /// The push's number (pushes are numbered from 1).
        var number: Int
    }

    /// What the reader gets when it asks for the next element.
    enum Next {
        /// Hand out `update` to a reader showing `base` (`nil`: the first element), with `moves` waiting: the
        /// batch from `base` to `update`'s results with the moves made again (``ResultsBatch/rebased(from:to:)``).
        case element(ResultsBatch<Object>, base: ResultsSnapshot<Object>?, moves: PendingMoves)
        /// The sequence ended, normally or with this failure.
        case end(FetchKitError?)
        /// Nothing waits.
        case wait
    }

    /// How many batches may wait before they collapse into one.
    let limit: Int
    var pending: [Pending] = []
    var coalesced: Coalesced?
    /// What the reader shows: the results of the last element handed out, or of a move it made itself.
    var shown: ResultsSnapshot<Object>?
    /// The moves the reader made that are not written yet.
    var moves = PendingMoves()
    var isFinished = false
    var failure: FetchKitError?
    /// Pushes so far; the number of the last push handed out (or skipped); the number through which the reader
    /// has finished (it asked for the next element after it).
    var pushed = 0
    var handedThrough = 0
    var processed = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The results the reader will show once it has read every waiting element.
    var tail: ResultsSnapshot<Object>? { coalesced?.snapshot ?? pending.last?.update.snapshot ?? shown }

    /// Whether an element, or the end, waits for the reader.
    var hasNext: Bool { !pending.isEmpty || coalesced != nil || isFinished }

    /// Adds `update` behind the waiting batches (or into the coalesced one).
    ///
    /// - Returns: whether it was taken (the sequence has not ended), and whether it started a coalesced batch
    ///   (the backlog was full).
    mutating func push(_ update: ResultsBatch<Object>) -> (taken: Bool, coalesced: Bool) {
        guard !isFinished else { return (false, false) }
        pushed += 1
        let number = pushed
        if var collapsed = coalesced {
            collapsed.snapshot = update.snapshot
            collapsed.transactionID = update.transactionID ?? collapsed.transactionID
            collapsed.transactions = Self.merge(collapsed.transactions, update.transactions)
            collapsed.through = number
            coalesced = collapsed
            return (true, false)
        }
        if pending.count >= limit, let first = pending.first {
            let transactions = pending.reduce(nil) { Self.merge($0, $1.update.transactions) }
            coalesced = Coalesced(
                snapshot: update.snapshot, transactionID: update.transactionID ?? pending.last?.update.transactionID,
                transactions: Self.merge(transactions, update.transactions),
                isInitial: first.update.changeset == nil, through: number)
            pending.removeAll()
            return (true, true)
        }
        pending.append(Pending(update: update, number: number))
        return (true, false)
    }

    /// Moves a row in what the reader shows, with `plan` planning the move from what it starts from (`nil`:
    /// the row stays): when `alreadyShown`, the reader already shows the move (its UI moved the row), otherwise
    /// the move enters the sequence as the element after those waiting. The move then waits until
    /// ``settleMove(_:)``.
    ///
    /// - Returns: the move's identifier and the move by identity; whether an element was added.
    mutating func applyMove(
        alreadyShown: Bool,
        _ plan: (ResultsSnapshot<Object>) throws -> (
            shown: ResultsSnapshot<Object>, key: Value, destination: MoveDestination
        )?
    ) throws -> (installed: (id: Int, key: Value, destination: MoveDestination)?, added: Bool) {
        guard !isFinished else { throw FetchKitError.unsupported("the update sequence has ended") }
        if alreadyShown {
            guard let base = shown else {
                throw FetchKitError.unsupported("the reader moved a row before it received the results")
            }
            guard let move = try plan(base) else { return (nil, false) }
            shown = move.shown
            return ((moves.add(key: move.key, destination: move.destination), move.key, move.destination), false)
        }
        guard let base = tail else {
            throw FetchKitError.unsupported("a move before the update sequence has the results")
        }
        guard let move = try plan(base) else { return (nil, false) }
        let changeset = try ResultsDiff.changeset(from: base, to: move.shown)
        let id = moves.add(key: move.key, destination: move.destination)
        pushed += 1
        if var collapsed = coalesced {
            collapsed.snapshot = move.shown
            collapsed.through = pushed
            coalesced = collapsed
        } else {
            let update = ResultsBatch(previous: base, snapshot: move.shown, changeset: changeset, transactionID: nil)
            pending.append(Pending(update: update, number: pushed))
        }
        return ((id, move.key, move.destination), true)
    }

    /// Forgets the reader's move `id` — it was written, or it failed — for the batches pushed from now on; those
    /// already waiting were computed before the move's outcome and are still handed out with it applied.
    mutating func settleMove(_ id: Int) {
        moves.settle(id, after: pushed)
        moves.prune(through: handedThrough)
    }

    /// Ends the sequence once the waiting batches are read: normally, or by throwing `failure`.
    ///
    /// - Returns: `false` when it had ended already.
    mutating func finish(throwing failure: FetchKitError?) -> Bool {
        guard !isFinished else { return false }
        self.failure = failure
        isFinished = true
        return true
    }

    /// Ends the sequence now, dropping what waits (the reader went away).
    mutating func cancel() {
        failure = nil
        pending.removeAll()
        coalesced = nil
        isFinished = true
    }

    /// The reader asks for the next element: it has finished with what it received (``processed``), and gets
    /// the next element, the end, or nothing yet.
    mutating func next() -> Next {
        processed = handedThrough
        if !pending.isEmpty {
            let element = pending.removeFirst()
            let base = shown
            shown = element.update.snapshot
            handedThrough = element.number
            let waiting = moves.waiting(at: element.number)
            moves.prune(through: element.number)
            return .element(element.update, base: base, moves: waiting)
        }
        if let collapsed = coalesced {
            coalesced = nil
            let base = shown
            shown = collapsed.snapshot
            handedThrough = collapsed.through
            let waiting = moves.waiting(at: collapsed.through)
            moves.prune(through: collapsed.through)
            guard !collapsed.isInitial, base != nil else {
                let initial = ResultsBatch(
                    previous: collapsed.snapshot, snapshot: collapsed.snapshot, changeset: nil, transactionID: nil)
                return .element(initial, base: nil, moves: waiting)
            }
            // The one batch from what the reader shows to the newest results is the diff between them
            // (``ResultsBatch/rebased(from:to:)``): the previous results and changeset here only stand in.
            let stand = ResultsBatch(
                previous: collapsed.snapshot, snapshot: collapsed.snapshot,
                changeset: Changeset(sectionCountsBefore: [], sectionCountsAfter: []),
                transactionID: collapsed.transactionID, transactions: collapsed.transactions)
            return .element(stand, base: base, moves: waiting)
        }
        if isFinished {
            defer { failure = nil }
            return .end(failure)
        }
        return .wait
    }

    /// The element just handed out with the reader's waiting moves made again leads to `target`: the reader
    /// shows that (unless a later element was handed out meanwhile).
    mutating func showing(_ target: ResultsSnapshot<Object>, for results: ResultsSnapshot<Object>) {
        if shown?.isIdentical(to: results) == true { shown = target }
    }

    private static func merge(_ a: ClosedRange<UInt64>?, _ b: ClosedRange<UInt64>?) -> ClosedRange<UInt64>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }
}
