extension ConnectionSupervisor {
    /// Silence for ``PostgresStore/ListenerOptions/pingInterval``: a half-open connection, or a server process
    /// that stopped, only shows itself when something is asked of it.
    mutating func ping(at now: ContinuousClock.Instant) -> [Action] {
        state = .pinging(deadline: now + options.pingTimeout)
        return [.ping]
    }

    /// A write's change is overdue: does the server still answer? A routine ping already out becomes the check's
    /// (sent again, with a new deadline); a check already out stands; without a connection there is nothing to
    /// check.
    mutating func checkRequested(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .streaming, .pinging:
            state = .stalled(reason: stallReason, deadline: now + options.pingTimeout)
            return [.reportState(.stalled(reason: stallReason)), .ping]
        default:
            return []
        }
    }

    /// The server answered: the connection works. A stall's check that passed reports the feed listening again.
    mutating func pingAnswered(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .pinging:
            stream(at: now)
            return []
        case .stalled:
            stream(at: now)
            return [.reportState(.listening)]
        default:
            return []
        }
    }
}
