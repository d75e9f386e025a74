/// The failure channel as state: fetching, following the store, behind it, stale and retrying, stopped.
extension ControllerMachine {
    /// Sets the status; reports it when it changed.
    private mutating func setStatus(_ next: ResultsStatus) -> [Action] {
        guard status != next else { return [] }
        status = next
        return [.reportStatus(next)]
    }

    mutating func fetchStarted() -> [Action] {
        statusBeforeFetch = status
        return setStatus(.fetching)
    }

    /// A fetch that worked catches a stale controller up.
    mutating func fetchSucceeded() -> [Action] {
        statusBeforeFetch = nil
        var actions: [Action] = []
        if retryAt != nil || isStale { actions.append(.cancelRetry) }
        isStale = false
        retryAt = nil
        retryDelay = Self.firstRetryDelay
        actions += setStatus(followingStatus)
        if heldSyncs > 0 {
            heldSyncs = 0
            actions.append(.releaseSyncs)
        }
        return actions
    }

    /// What the status says while the controller follows the store: ``ResultsStatus/resyncing(_:)`` while its
    /// feed cannot deliver, else ``ResultsStatus/live`` or ``ResultsStatus/catchingUp(lag:)`` by its lag.
    var followingStatus: ResultsStatus {
        feedInterruption.map { .resyncing($0) } ?? lag.status
    }

    /// The feed cannot deliver: a controller that follows the store says so now.
    mutating func feedInterrupted(_ error: FetchKitError, id: UInt64) -> [Action] {
        guard id > feedDeliveryID else { return [] }
        feedDeliveryID = id
        feedInterruption = error
        switch status {
        case .live, .catchingUp: return setStatus(followingStatus)
        case .resyncing where !isStale: return setStatus(followingStatus)
        default: return []
        }
    }

    /// The feed delivers again and what it published before is applied: a controller that follows the store is
    /// live (or behind, by its lag) again.
    mutating func feedResumed(id: UInt64) -> [Action] {
        guard id > feedDeliveryID else { return [] }
        feedDeliveryID = id
        guard feedInterruption != nil else { return [] }
        feedInterruption = nil
        switch status {
        case .resyncing where !isStale: return setStatus(followingStatus)
        default: return []
        }
    }

    mutating func fetchFailed() -> [Action] {
        defer { statusBeforeFetch = nil }
        switch statusBeforeFetch ?? status {
        // The feed may have been interrupted, or resumed, while the fetch ran.
        case .live, .catchingUp: return setStatus(followingStatus)
        case .resyncing where !isStale: return setStatus(followingStatus)
        case let restored: return setStatus(restored)
        }
    }

    /// A transient failure retries with backoff; any other stops the controller.
    mutating func readFailed(_ error: FetchKitError, at now: ContinuousClock.Instant) -> [Action] {
        guard !hasFailed else { return [] }
        guard error.isTransient else { return stop(error) }
        isStale = true
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.maximumRetryDelay)
        retryAt = now + delay
        return [.logRetry(error), .scheduleRetry(after: delay)] + setStatus(.resyncing(error))
    }

    mutating func retryDue(at now: ContinuousClock.Instant) -> [Action] {
        guard isStale, let due = retryAt else { return [] }
        // A retry from a schedule the machine replaced since (its delay not yet over) is not this one.
        guard now >= due else { return [] }
        retryAt = nil
        return [.refetch]
    }

    mutating func caughtUp() -> [Action] {
        guard isStale else { return [] }
        isStale = false
        retryAt = nil
        retryDelay = Self.firstRetryDelay
        var actions: [Action] = [.logCaughtUp]
        actions += setStatus(followingStatus)
        if heldSyncs > 0 {
            heldSyncs = 0
            actions.append(.releaseSyncs)
        }
        return actions
    }

    /// Stops for good: keeps the results, applies nothing more, releases `sync()` callers.
    mutating func stop(_ error: FetchKitError) -> [Action] {
        guard !hasFailed else { return [] }
        var actions = setStatus(.failed(error))
        if isStale || retryAt != nil { actions.append(.cancelRetry) }
        isStale = false
        retryAt = nil
        retryDelay = Self.firstRetryDelay
        if heldSyncs > 0 {
            heldSyncs = 0
            actions.append(.releaseSyncs)
        }
        actions.append(.stop(error))
        return actions
    }

    /// A stale controller holds `sync()` until it has caught up; any other resumes it at once.
    mutating func syncRequested() -> [Action] {
        guard isStale else { return [.resumeSync] }
        heldSyncs += 1
        return []
    }

    /// Sets the status from the delivery lag while the controller follows the store (``ResultsStatus/live``
    /// or ``ResultsStatus/catchingUp(lag:)``; any other status is left alone).
    mutating func lagMeasured(_ measured: Duration) -> [Action] {
        let wasBehind = lag.isBehind
        _ = lag.observe(measured)
        var actions: [Action] = []
        if wasBehind != lag.isBehind { actions.append(.logLag(behind: lag.isBehind, lag: measured)) }
        switch status {
        case .live, .catchingUp: actions += setStatus(lag.status)
        default: break
        }
        return actions
    }
}
