/// The failure channel as state: fetching, following the store, stale and retrying, stopped — one
/// ``ControllerLifecycle`` value — with the status derived from it, the feed's delivery and the lag.
extension ControllerMachine {
    /// Whether the controller follows the database (see ``ResultsStatus``), derived from ``lifecycle``,
    /// ``feedInterruption`` and ``lag``.
    var status: ResultsStatus {
        switch lifecycle {
        case .idle: .idle
        case .fetching: .fetching
        case .following: followingStatus
        case .stale(let read): .resyncing(read.error)
        case .failed(let error): .failed(error)
        }
    }

    /// What the status says while the controller follows the store: ``ResultsStatus/resyncing(_:)`` while its
    /// feed cannot deliver, else ``ResultsStatus/live`` or ``ResultsStatus/catchingUp(lag:)`` by its lag.
    var followingStatus: ResultsStatus {
        feedInterruption.map { .resyncing($0) } ?? lag.status
    }

    /// `true` after a transient read failure, until a refetch works (also while a fetch runs over it): changes
    /// are not applied meanwhile, and `sync()` waits.
    var isStale: Bool { lifecycle.staleRead != nil }

    /// `true` once the controller stopped for good.
    var hasFailed: Bool { lifecycle.failure != nil }

    /// When the scheduled retry is due, while one is.
    var retryAt: ContinuousClock.Instant? { lifecycle.staleRead?.retryAt }

    /// The `sync()` calls waiting for a stale controller to catch up.
    var heldSyncs: Int { audience.heldSyncs.count }

    /// The delay of the next retry (doubling up to ``maximumRetryDelay``).
    var retryDelay: Duration { lifecycle.staleRead?.nextDelay ?? Self.firstRetryDelay }

    /// Runs a change of lifecycle and reports the status first when it changed.
    mutating func reportingStatus(_ change: (inout Self) -> [Action]) -> [Action] {
        let before = status
        let actions = change(&self)
        let after = status
        guard before != after else { return actions }
        return [.reportStatus(after, to: Array(audience.statusReaders.values))] + actions
    }

    /// A fetch starts: from any lifecycle, a stopped controller's too (a fetch starts it again).
    mutating func fetchStarted() -> [Action] {
        if case .fetching = lifecycle { return [] }
        lifecycle = .fetching(returningTo: lifecycle)
        return []
    }

    /// A fetch that worked catches a stale controller up.
    mutating func fetchSucceeded() -> [Action] {
        follow(releasing: lifecycle.staleRead)
    }

    /// A fetch that threw changes nothing: the controller is where it was before it (the feed may have been
    /// interrupted, or resumed, meanwhile: the status says so).
    mutating func fetchFailed() -> [Action] {
        if case .fetching(let before) = lifecycle { lifecycle = before }
        return []
    }

    /// Follows the store; a stale read it leaves cancels its retry and releases its held `sync()` calls.
    private mutating func follow(releasing stale: ControllerLifecycle.StaleRead?) -> [Action] {
        lifecycle = .following
        guard stale != nil else { return [] }
        return leavingStaleRead()
    }

    /// What leaving a stale read does: its retry is cancelled, its held `sync()` calls resume.
    private mutating func leavingStaleRead() -> [Action] {
        var actions: [Action] = [.cancelRetry(audience.retry)]
        audience.retry = nil
        if !audience.heldSyncs.isEmpty {
            actions.append(.releaseSyncs(audience.heldSyncs))
            audience.heldSyncs = []
        }
        return actions
    }

    /// The feed cannot deliver: a controller that follows the store says so now (its status is derived).
    mutating func feedInterrupted(_ error: FetchKitError, id: UInt64) -> [Action] {
        guard id > feedDeliveryID else { return [] }
        feedDeliveryID = id
        feedInterruption = error
        return []
    }

    /// The feed delivers again and what it published before is applied: a controller that follows the store is
    /// live (or behind, by its lag) again.
    mutating func feedResumed(id: UInt64) -> [Action] {
        guard id > feedDeliveryID else { return [] }
        feedDeliveryID = id
        feedInterruption = nil
        return []
    }

    /// A transient failure retries with backoff; any other stops the controller.
    mutating func readFailed(_ error: FetchKitError, at now: ContinuousClock.Instant) -> [Action] {
        guard !hasFailed else { return [] }
        guard error.isTransient else { return stop(error) }
        var read = lifecycle.staleRead ?? .init(error: error, nextDelay: Self.firstRetryDelay)
        let delay = read.nextDelay
        read.error = error
        read.nextDelay = min(delay * 2, Self.maximumRetryDelay)
        read.retryAt = now + delay
        switch lifecycle {
        // A fetch over the controller fails by itself (``fetchFailed()``): the retry is the stale read's.
        case .fetching(.stale): lifecycle.updateStaleRead { $0 = read }
        case .fetching: lifecycle = .fetching(returningTo: .stale(read))
        case .idle, .following, .stale, .failed: lifecycle = .stale(read)
        }
        let replaced = audience.retry
        audience.retry = nil
        return [.logRetry(error), .scheduleRetry(after: delay, replacing: replaced)]
    }

    mutating func retryDue(at now: ContinuousClock.Instant) -> [Action] {
        // A retry from a schedule the machine replaced since (its delay not yet over) is not this one.
        guard let due = retryAt, now >= due else { return [] }
        lifecycle.updateStaleRead { $0.retryAt = nil }
        return [.refetch]
    }

    mutating func caughtUp() -> [Action] {
        switch lifecycle {
        case .stale(let read):
            return [.logCaughtUp] + follow(releasing: read)
        case .fetching(.stale(let read)):
            // The fetch that runs over it decides where the controller goes from here; it is not stale.
            let actions: [Action] = [.logCaughtUp] + follow(releasing: read)
            lifecycle = .fetching(returningTo: .following)
            return actions
        default:
            return []
        }
    }

    /// Stops for good: keeps the results, applies nothing more, releases `sync()` callers.
    mutating func stop(_ error: FetchKitError) -> [Action] {
        guard !hasFailed else { return [] }
        let stale = lifecycle.staleRead
        lifecycle = .failed(error)
        var actions = stale != nil ? leavingStaleRead() : []
        // Its readers end with it: none is left to publish to.
        let stopping = Stopping(
            delegate: audience.delegate, readers: audience.subscribers, followers: sharing.ledGroup)
        audience.subscribers = nil
        audience.awaitingInitial = []
        actions.append(.stop(error, stopping))
        return actions
    }

    /// A stale controller holds `sync()` until it has caught up; any other resumes it at once.
    mutating func syncRequested(_ waiter: SyncWaiter) -> [Action] {
        guard isStale else { return [.resumeSync(waiter)] }
        audience.heldSyncs.append(waiter)
        return []
    }

    /// Records the delivery lag: the status of a controller that follows the store derives from it
    /// (``ResultsStatus/live`` or ``ResultsStatus/catchingUp(lag:)``).
    mutating func lagMeasured(_ measured: Duration) -> [Action] {
        let wasBehind = lag.isBehind
        _ = lag.observe(measured)
        guard wasBehind != lag.isBehind else { return [] }
        return [.logLag(behind: lag.isBehind, lag: measured)]
    }
}
