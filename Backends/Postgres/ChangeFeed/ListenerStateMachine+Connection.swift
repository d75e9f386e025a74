extension ListenerStateMachine {
    /// A connection is up: the first one starts the listener; a new one after a failure publishes a resync —
    /// whatever committed while nobody listened must reach the controllers — and completes the waiting writes,
    /// whose end markers may have been lost (the resync covers them).
    mutating func connected(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .starting:
            listen(at: now)
            resetProbes(at: now)
            return [.started]
        case .reconnecting(let attempt, _, _):
            listen(at: now)
            resetProbes(at: now)
            // Listening is reported after the resync: the controllers are live again once they applied it.
            return [.reconnected(attempts: attempt), .publishResync, .completeAllWrites, .reportState(.listening)]
        default:
            return []
        }
    }

    /// Opening a connection failed: the first one ends the listener; a later one waits twice as long as the
    /// last (at most the upper bound of ``PostgresStore/ListenerOptions/reconnectBackoff``) before trying again.
    mutating func connectionFailed(_ error: String, at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .starting:
            state = .stopped
            return [.startFailed]
        case .reconnecting(let attempt, _, let delay):
            // Writes waiting for their changes return now rather than wait out the outage: the resync published
            // on reconnection covers them (``PostgresStore/write(_:)`` documents this).
            let completions: [Action] = attempt == 1 ? [.completeAllWrites] : []
            let next = min(delay * 2, options.reconnectBackoff.upperBound)
            state = .waitingToReconnect(attempt: attempt + 1, lastError: error, delay: next, retryAt: now + next)
            return completions + [.reportState(.reconnecting(attempt: attempt + 1, lastError: error))]
        default:
            return []
        }
    }

    /// The connection broke for `reason`: closes it, publishes the transaction being received (its notifications
    /// arrived whole: they are sent at commit) and waits the lower bound of
    /// ``PostgresStore/ListenerOptions/reconnectBackoff`` before the first attempt.
    mutating func lose(_ reason: String, at now: ContinuousClock.Instant) -> [Action] {
        let delay = options.reconnectBackoff.lowerBound
        let pending = flush()
        state = .waitingToReconnect(attempt: 1, lastError: reason, delay: delay, retryAt: now + delay)
        lastActivity = nil
        return [.disconnect(reason: reason)] + pending + [.reportState(.reconnecting(attempt: 1, lastError: reason))]
    }

    /// The wait before attempt `attempt` is over: connect.
    mutating func retry(_ attempt: Int, _ lastError: String, _ delay: Duration) -> [Action] {
        state = .reconnecting(attempt: attempt, lastError: lastError, delay: delay)
        return [.connect]
    }

    /// Listening from `now`, no ping out.
    mutating func listen(at now: ContinuousClock.Instant) {
        state = .listening
        lastActivity = now
    }
}
