/// A composite controller's decisions, without its I/O: which parts it has, what each part last reported,
/// what its delegate was told, which changes wait for their transaction to complete, and when it stops.
///
/// ``CompositeResultsController`` fetches and syncs its parts, calls the delegate and logs; it tells the machine
/// what happened with ``handle(_:)`` and performs the returned ``Action``s in order. The machine reads no clock:
/// its only waits are the emission rounds, whose ends the controller reports (``Event/roundSynced(through:)``).
/// So tests walk the grouping of changes by transaction, the merge into global index paths and the failure
/// path without a database (`CompositeMachineTests`).
struct CompositeMachine: Sendable {
    /// A part as the machine knows it.
    enum Part: Sendable {
        /// Fixed rows: their content never changes.
        case fixed(PartContent)
        /// A results controller's: its content comes with ``Event/fetchCompleted(_:)`` and its changes.
        case results
    }

    /// A part's change: the batch from what the part reported before, and what it shows after.
    typealias Change = (changeset: Changeset, content: PartContent)

    /// Turns what a part last reported into its change; `nil` when nothing the composite shows changed. It
    /// throws when the change cannot be translated (a state FetchKit never reaches unless it has a bug).
    typealias Translate = (_ last: PartContent) throws -> Change?

    /// A part's change waiting for its transaction to be complete.
    struct Pending: Sendable {
        var part: Int
        var transactionID: UInt64?
        var changeset: Changeset
        var content: PartContent
    }

    /// What happened to the composite.
    enum Event {
        /// A part is added after the others (refused once the composite started).
        case partAdded(Part)
        /// ``CompositeResultsController/performFetch()`` fetched every results part: each one's content, by
        /// part index. The composite starts following its parts; no delegate method is called.
        case fetchCompleted([Int: PartContent])
        /// Part `part` reported a batch of store transaction `transactionID` (`nil`: a fetch or request
        /// change); `translate` makes the composite's change of it from what the part reported before.
        case partChanged(part: Int, transactionID: UInt64?, translate: Translate)
        /// A part stopped with a permanent failure.
        case partFailed(FetchKitError)
        /// Every part synced, and each has applied the store's transactions through `through`: the pending
        /// changes of transactions up to it are complete.
        case roundSynced(through: UInt64)
        /// The batch of ``Action/notifyDelegate(_:before:after:)`` was delivered (or had no one to go to).
        case batchDelivered
        /// A delegate was set (`true`) or removed.
        case delegateChanged(Bool)
    }

    /// What the composite does next, in order.
    enum Action {
        /// Keep the part's resources: it is part `index`.
        case addPart(index: Int)
        /// Refuse the part: parts are added before the composite's `performFetch()`.
        case refusePart
        /// Wake the emission loop: changes are pending.
        case signalEmission
        /// Call the delegate's methods for `update`, which takes the composite from `before` to `after`.
        case notifyDelegate(CompositeBatch, before: [PartContent], after: [PartContent])
        /// Report ``Event/batchDelivered`` (after the actions before this one): the round goes on.
        case continueRound
        /// Sync every part again and report ``Event/roundSynced(through:)``: changes are still pending.
        case syncRound
        /// Log that the composite stopped: part `part`'s change could not be translated.
        case logError(part: Int, FetchKitError)
        /// Tell the delegate of this failure, after the batches pending before it.
        case reportFailure(FetchKitError)
    }

    /// The parts, in order.
    var parts: [Part] = []
    /// Whether ``Event/fetchCompleted(_:)`` happened: no part is added after, changes are followed.
    var started = false
    /// What each part last reported (pending changes included).
    var latest: [PartContent] = []
    /// What the delegate has been told: the composite's content.
    var applied: [PartContent] = []
    /// The parts' changes not told yet, in arrival order.
    var pending: [Pending] = []
    /// Set when a part's change could not be translated: the composite stopped.
    var failure: FetchKitError?
    /// Whether a delegate is set.
    var hasDelegate = false

    // MARK: Emission rounds

    /// The transaction through which the round in progress emits, while one is.
    var roundThrough: UInt64?
    /// Whether the round in progress emitted a batch.
    var roundEmitted = false
    /// Whether the last round emitted nothing while changes were pending: the next one emits them all, in order.
    var stalled = false

    /// Handles `event` and returns what to do, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .partAdded(let part): return partAdded(part)
        case .fetchCompleted(let contents): return fetchCompleted(contents)
        case .partChanged(let part, let transactionID, let translate):
            return partChanged(part, transactionID: transactionID, translate: translate)
        case .partFailed(let error): return [.reportFailure(error)]
        case .roundSynced(let through): return roundSynced(through: through)
        case .batchDelivered: return nextBatch()
        case .delegateChanged(let attached):
            hasDelegate = attached
            return []
        }
    }

    mutating func partAdded(_ part: Part) -> [Action] {
        guard !started else { return [.refusePart] }
        parts.append(part)
        return [.addPart(index: parts.count - 1)]
    }

    /// Starts from the parts' current content: the delegate has been told it all, nothing is pending.
    mutating func fetchCompleted(_ contents: [Int: PartContent]) -> [Action] {
        latest = parts.indices.map { index in
            switch parts[index] {
            case .fixed(let content): content
            case .results: contents[index] ?? PartContent(names: [], counts: [], window: nil, fixedRows: [])
            }
        }
        applied = latest
        pending = []
        started = true
        return []
    }

    /// A part's change, translated from what the part last reported. A change that cannot be translated stops
    /// the composite with an ``FetchKitError/Code/inconsistency`` error rather than leave it silently behind
    /// its parts; once stopped, or before it started, changes are ignored.
    mutating func partChanged(_ part: Int, transactionID: UInt64?, translate: Translate) -> [Action] {
        guard started, failure == nil, latest.indices.contains(part) else { return [] }
        do {
            guard let (changeset, content) = try translate(latest[part]) else { return [] }
            latest[part] = content
            pending.append(Pending(part: part, transactionID: transactionID, changeset: changeset, content: content))
            return [.signalEmission]
        } catch {
            let failure = FetchKitError.inconsistency("part \(part)'s change could not be translated: \(error)")
            self.failure = failure
            return [.logError(part: part, failure), .reportFailure(failure)]
        }
    }
}
