extension ConnectionSupervisor {
    /// A connection is up: the first one starts the feed; a new one after a failure catches up (the feed's
    /// ``Action/reconnected(attempts:)``), then reports the feed listening — its controllers are live again once they
    /// applied what caught them up.
    mutating func connected(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .starting:
            stream(at: now)
            return [.started]
        case .reconnecting(let attempt, _, _):
            stream(at: now)
            return [.reconnected(attempts: attempt), .reportState(.listening)]
        default:
            return []
        }
    }

    /// Opening a connection failed: the first one ends the feed; a later one waits twice as long as the last (at
    /// most the upper bound of ``PostgresStore/ListenerOptions/reconnectBackoff``) before trying again.
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

    /// The connection broke for `reason`: closes it and waits the lower bound of
    /// ``PostgresStore/ListenerOptions/reconnectBackoff`` before the first attempt.
    mutating func lose(_ reason: String, at now: ContinuousClock.Instant) -> [Action] {
        let delay = options.reconnectBackoff.lowerBound
        state = .waitingToReconnect(attempt: 1, lastError: reason, delay: delay, retryAt: now + delay)
        lastActivity = nil
        return [.disconnect(reason: reason), .reportState(.reconnecting(attempt: 1, lastError: reason))]
    }

    /// The wait before attempt `attempt` is over: connect.
    mutating func retry(_ attempt: Int, _ lastError: String, _ delay: Duration) -> [Action] {
        state = .reconnecting(attempt: attempt, lastError: lastError, delay: delay)
        return [.connect]
    }

    /// Streaming from `now`, no ping out.
    mutating func stream(at now: ContinuousClock.Instant) {
        state = .streaming
        lastActivity = now
    }
}
