/// A results controller's state and decisions, as one value without I/O: its lifecycle and status, its retries,
/// the `sync()` calls it holds, its results and the request they answer, its part in shared results, what its
/// delegate shows and must receive — including the moves the delegate's UI made that are not written yet — and
/// who hears it (``ControllerAudience``: the delegate, the readers of its sequences, its pending retry) and
/// what it counted (``ControllerCounts``).
///
/// ``ResultsController`` fetches, re-reads, writes moves and calls the delegate; it tells the machine what
/// happened with ``handle(_:at:)`` — always through one interpreter (`decide` and `perform`), passing the current
/// instant (the machine reads no clock) — and performs the returned ``Action``s in order. Nothing else edits the
/// controller's state: its lock holds this value and the request the controller was made with. Its lifecycle is
/// one ``ControllerLifecycle`` value; the status is derived from it. Every race of the live path — a writer's
/// batch published while the user drags a row on the delegate's actor, a read that fails while a `sync()` waits,
/// a batch that cannot be built — is a sequence of events here: unit tests walk them on the machine alone, and
/// `ControllerInterleavingTests` drives the real controller — this machine and its interpreter — over a store
/// whose reads they hold or fail, its feed blind or closed, in every order.
///
/// The incremental engine (which rows a change touches, the new results) and the update sequences' buffers
/// stay outside: the engine hands the machine new results with ``Event/published(_:)``; the buffers keep
/// their own moves (``UpdateBuffer``).
struct ControllerMachine<Object: Sendable>: Sendable {
    /// Makes a view's waiting moves again on new results, for a view that shows `view`: the results with the
    /// moves made, and the dragged rows whose moves no longer apply. The controller's plans each move as a
    /// user's (``ResultsController/results(_:with:request:view:)``).
    typealias Replay = (
        _ results: ResultsSnapshot<Object>, _ moves: PendingMoves, _ view: ResultsSnapshot<Object>?
    ) -> MovedResults<Object>

    /// New results for the controller and its views.
    struct Publication {
        /// The new results.
        var snapshot: ResultsSnapshot<Object>
        /// The results the batch starts from.
        var previous: ResultsSnapshot<Object>
        /// Whether the batch changes anything.
        var hasChanges: Bool
        /// The last transaction the results show, when they come from the store (`nil`: a local change).
        var transactionID: UInt64?
        /// Deliver to the delegate even an empty batch, so that a view a step off the results comes back.
        var reconcile = false
    }

    /// What happened to the controller.
    enum Event {
        /// ``ResultsController/performFetch()`` or ``ResultsController/setRequest(_:)`` starts its fetch.
        case fetchStarted
        /// That fetch worked (its results were published).
        case fetchSucceeded
        /// That fetch threw: nothing changed.
        case fetchFailed
        /// The engine, a refetch, a leader or a move produced new results.
        case published(Publication)
        /// The store's changes through this transaction are applied, with or without a batch.
        case applied(through: UInt64)
        /// A delegate was set, with the actor its callbacks run on (`nil`: the controller's task), or removed.
        case delegateSet((any ResultsControllerDelegate<ResultsController<Object>>)?, actor: (any Actor)?)
        /// A reader of ``ResultsController/updates(bufferingLimit:)`` subscribed, as `id`.
        case updatesSubscribed(UpdateBuffer<Object>, id: Int)
        /// That reader went away.
        case updatesEnded(id: Int)
        /// A reader of ``ResultsController/statusUpdates()`` subscribed, as `id`.
        case statusSubscribed(AsyncStream<ResultsStatus>.Continuation, id: Int)
        /// That reader went away.
        case statusEnded(id: Int)
        /// The retry ``Action/scheduleRetry(after:replacing:)`` asked for is scheduled, as `task`.
        case retryScheduled(Task<Void, Never>)
        /// The controller applied a change (or coalesced batches) in a way its statistics count.
        case counted(ControllerCounts.Count)
        /// The incremental path was turned on (`true`, the default) or off: every change is then refetched.
        case incrementalPathEnabled(Bool)
        /// A published batch's delivery runs on the delegate's executor now: build what it receives, with
        /// `replay` for its waiting moves (`nil` when it has none: a follower of shared results delivers thousands
        /// of batches a write, and a replay closure built for each cost an allocation).
        case delegateDelivery(ResultsBatch<Object>, replay: Replay?)
        /// The delegate's UI moved a row itself: it showed `base`, it shows `shown` now, and the move by
        /// identity is `key` to `destination`.
        case userMoved(
            base: ResultsSnapshot<Object>, shown: ResultsSnapshot<Object>, key: Value, destination: MoveDestination)
        /// ``ResultsController/moveObject(from:to:)`` is about to write a move from `current`: a delegate in
        /// step with it shows `shown` from now on.
        case moveShown(current: ResultsSnapshot<Object>, shown: ResultsSnapshot<Object>)
        /// The delegate's move `id` was written (or failed): the results show its outcome.
        case moveSettled(id: Int)
        /// Reading the store failed: transiently (the controller retries) or for good.
        case readFailed(FetchKitError)
        /// The retry scheduled by ``Action/scheduleRetry(after:)`` is due.
        case retryDue
        /// The refetch of ``Action/refetch`` worked.
        case caughtUp
        /// The controller stops for good (its leader failed, a batch could not be built).
        case stopped(FetchKitError)
        /// `sync()` reached the controller's queue: every change routed before it is applied. `waiter` resumes
        /// it, now or once a stale controller caught up.
        case syncRequested(SyncWaiter)
        /// The controller's delivery lag was measured.
        case lagMeasured(Duration)
        /// The lag past which the status reads ``ResultsStatus/catchingUp(lag:)`` was set.
        case catchingUpThresholdSet(Duration)
        /// The store's feed cannot deliver (``FeedDelivery/interrupted(_:)``), as its change `id` said.
        case feedInterrupted(FetchKitError, id: UInt64)
        /// The store's feed delivers again, as its change `id` said, and the changes routed before are applied.
        case feedResumed(id: UInt64)
        /// A fetch installed its results: it saw every change through `fetchStart`; the router's re-reads of the
        /// changes routed through `routedThrough` may predate it.
        case fetchInstalled(fetchStart: UInt64, routedThrough: UInt64)
        /// The controller's move was written after the changes through this transaction.
        case moveWritten(through: UInt64)
        /// A fetch that worked (or a join) installs the request the results now answer.
        case requestInstalled(InstalledRequest)
        /// It leads a group of shared results, follows one, or left its group (``SharingRole``).
        case shares(SharingRole<Object>)
        /// Its results are at the group's batch `version` (`nil`: a local change made them differ).
        case sharedVersion(UInt64?)
        /// A follower takes the lead of the group it follows (its leader left).
        case promoted
    }

    /// What the controller does next, in order.
    enum Action {
        /// Tell these status readers.
        case reportStatus(ResultsStatus, to: [AsyncStream<ResultsStatus>.Continuation])
        /// Tell a new status reader the status, before any later change of it (under the lock).
        case greetStatusReader(AsyncStream<ResultsStatus>.Continuation, ResultsStatus)
        /// Build the batch of the publication just handled, naming the transactions `covering`, for the update
        /// sequences — and for the delegate when `toDelegate` (then deliver it, on its executor, with
        /// ``Event/delegateDelivery(_:replay:)``). The readers `initial` subscribed before the first results:
        /// they receive the results instead.
        case publish(covering: ClosedRange<UInt64>?, toDelegate: Bool, initial: Set<Int>)
        /// Call the delegate's methods for this batch.
        case notifyDelegate(ResultsBatch<Object>, (any ResultsControllerDelegate<ResultsController<Object>>)?)
        /// Give a new update reader the current results, before any later batch (under the lock).
        case startReader(UpdateBuffer<Object>, ResultsBatch<Object>)
        /// End a new update reader's sequence at once: the controller has stopped.
        case endReader(UpdateBuffer<Object>, FetchKitError)
        /// Write the delegate's move `id` (by identity), then report ``Event/moveSettled(id:)``.
        case writeMove(id: Int, key: Value, destination: MoveDestination)
        /// The delegate's results changed since the move was planned: plan it again from them.
        case replanMove
        /// Refetch after ``retryDue``, and report ``Event/caughtUp`` or ``Event/readFailed(_:)``.
        case refetch
        /// Report ``Event/retryDue`` after this delay, then ``Event/retryScheduled(_:)`` (under the lock); cancel
        /// the retry scheduled before.
        case scheduleRetry(after: Duration, replacing: Task<Void, Never>?)
        /// Cancel the scheduled retry, if there is one.
        case cancelRetry(Task<Void, Never>?)
        /// Resume the `sync()` call that was just requested.
        case resumeSync(SyncWaiter)
        /// Resume every `sync()` call held while the controller could not read.
        case releaseSyncs([SyncWaiter])
        /// Stop: log, tell the delegate, end the update sequences and stop the followers with this error.
        case stop(FetchKitError, Stopping)
        /// Log that the controller fell behind the store (`true`), or caught up (`false`).
        case logLag(behind: Bool, lag: Duration)
        /// Log a transient read failure and that the controller retries.
        case logRetry(FetchKitError)
        /// Log that a stale controller caught up.
        case logCaughtUp
    }

    /// Who hears of a controller that stopped.
    struct Stopping {
        var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?
        var readers: UpdateSubscribers<Object>?
        var followers: SharedResults<Object>?
    }

    /// Who hears the controller and waits on it (first: a follower of shared results reads its delegate and
    /// readers for each batch it delivers).
    var audience = ControllerAudience<Object>()

    // MARK: Results and the delegate's view

    // First: a shared request's follower reads these, and only these, for each batch it delivers.

    /// The controller's results.
    var results = ResultsSnapshot<Object>()
    /// The last transaction a batch was emitted for.
    var lastBatchThrough: UInt64 = 0
    /// The last transaction applied (with or without a batch).
    var appliedThrough: UInt64 = 0
    /// What the delegate shows when it is not ``results`` (`nil`: in step): the results before a batch still
    /// on its way to the delegate's executor, or with a row its UI moved itself.
    var delegateShown: ResultsSnapshot<Object>?
    /// The moves the delegate's UI made that are not written yet: its batches lead to the results with them
    /// applied, so it never hears of the dragged row.
    var delegateMoves = PendingMoves()
    // The flags together, so no padding follows each.
    /// Whether the results were fetched at least once.
    var hasFetched = false
    /// Whether a delegate is set.
    var hasDelegate = false
    /// `false` sends every store change through the refetch path (for benchmarks and tests).
    var isIncrementalEnabled = true

    /// Which routed changes the results hold, and which re-reads of the router's they can trust.
    var horizon = ReadHorizon()
    /// The request the results answer, its shape and plan, once a fetch installed them.
    var installed: InstalledRequest?
    /// Its part in shared results (see ``SharedResults``): alone, leading a group or following one, with the
    /// group's batch its results are at (`nil` after a local change — a move — made them differ, so the next
    /// batch is found by diffing).
    var sharing = SharingRole<Object>.alone
    /// How it applied the store's changes (``ResultsController/statistics``).
    var counts = ControllerCounts()

    // MARK: Lifecycle

    /// Where the controller is in its life: idle, fetching, following the store, stale and retrying, stopped.
    var lifecycle = ControllerLifecycle.idle
    /// Whether the status says the controller is behind the store.
    var lag = DeliveryLag()
    /// Why the store's feed cannot deliver, while it cannot: the controller is not live meanwhile.
    var feedInterruption: FetchKitError?
    /// The ID of the newest report of the feed's delivery applied: an older one arriving late (a resumption queued
    /// behind a refetch, an interruption told to a controller as it attached) changes nothing.
    var feedDeliveryID: UInt64 = 0

    static var firstRetryDelay: Duration { .milliseconds(50) }
    static var maximumRetryDelay: Duration { .seconds(2) }

    /// What the delegate shows.
    var delegateView: ResultsSnapshot<Object> { delegateShown ?? results }

    /// Handles `event`, which happened at `now`, and returns what to do, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .fetchStarted: return reportingStatus { $0.fetchStarted() }
        case .fetchSucceeded: return reportingStatus { $0.fetchSucceeded() }
        case .fetchFailed: return reportingStatus { $0.fetchFailed() }
        case .published(let publication): return published(publication)
        case .applied(let transactionID):
            markApplied(through: transactionID)
            return []
        case .delegateSet(let delegate, let actor): return delegateSet(delegate, actor: actor)
        case .updatesSubscribed(let buffer, let id): return updatesSubscribed(buffer, id: id)
        case .updatesEnded(let id):
            audience.subscribers = audience.subscribers?.removing(id)
            audience.awaitingInitial.remove(id)
            return []
        case .statusSubscribed(let reader, let id):
            audience.statusReaders[id] = reader
            return [.greetStatusReader(reader, status)]
        case .statusEnded(let id):
            audience.statusReaders[id] = nil
            return []
        case .retryScheduled(let task):
            audience.retry = task
            return []
        case .counted(let count):
            counts.add(count)
            return []
        case .incrementalPathEnabled(let enabled):
            isIncrementalEnabled = enabled
            return []
        case .delegateDelivery(let update, let replay): return delegateDelivery(update, replay: replay)
        case .userMoved(let base, let shown, let key, let destination):
            return userMoved(base: base, shown: shown, key: key, destination: destination)
        case .moveShown(let current, let shown): return moveShown(current: current, shown: shown)
        case .moveSettled(let id):
            delegateMoves.remove(id)
            return []
        case .readFailed(let error): return reportingStatus { $0.readFailed(error, at: now) }
        case .retryDue: return retryDue(at: now)
        case .caughtUp: return reportingStatus { $0.caughtUp() }
        case .stopped(let error): return reportingStatus { $0.stop(error) }
        case .syncRequested(let waiter): return syncRequested(waiter)
        case .lagMeasured(let measured): return reportingStatus { $0.lagMeasured(measured) }
        case .catchingUpThresholdSet(let threshold):
            lag.threshold = max(.zero, threshold)
            return []
        case .feedInterrupted(let error, let id): return reportingStatus { $0.feedInterrupted(error, id: id) }
        case .feedResumed(let id): return reportingStatus { $0.feedResumed(id: id) }
        case .fetchInstalled(let fetchStart, let routedThrough):
            horizon.fetched(through: fetchStart, routedThrough: routedThrough)
            return []
        case .moveWritten(let transactionID):
            horizon.moveWritten(through: transactionID)
            return []
        case .requestInstalled(let request):
            installed = request
            return []
        case .shares(let role):
            sharing = role
            return []
        case .sharedVersion(let version):
            sharing.adopt(version: version)
            return []
        case .promoted:
            sharing.promote()
            return []
        }
    }
}

/// What ``ControllerMachine/publishedInStep(_:)`` decided (not generic over the object type: it is decided
/// thousands of times per write, and a generic type is looked up at run time each time).
struct InStepDelivery: Equatable {
    /// Whether the delegate receives the batch (it changes something, or reconciles).
    var toDelegate: Bool
    /// The transactions the batch names.
    var covering: ClosedRange<UInt64>?
}
