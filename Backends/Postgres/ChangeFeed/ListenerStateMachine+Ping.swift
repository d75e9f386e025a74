extension ListenerStateMachine {
    /// Silence for ``PostgresStore/ListenerOptions/pingInterval``: a half-open connection, or a server process
    /// that stopped, only shows itself when something is asked of it.
    mutating func ping(at now: ContinuousClock.Instant) -> [Action] {
        state = .pinging(deadline: now + options.pingTimeout)
        return [.sendPing]
    }

    /// A write's change is overdue: does the server process still answer? (A check asked for while a ping is
    /// out is that ping; while reconnecting, there is nothing to check.)
    mutating func checkRequested(at now: ContinuousClock.Instant) -> [Action] {
        guard state == .listening else { return [] }
        let reason =
            "a write's change was not published within \(options.publishTimeout); "
            + "checking the listener's connection"
        state = .stalled(reason: reason, deadline: now + options.pingTimeout)
        return [.reportState(.stalled(reason: reason)), .sendPing]
    }

    /// The server process answered: the connection works.
    mutating func pingAnswered(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .pinging:
            listen(at: now)
            return []
        case .stalled:
            listen(at: now)
            // Listening reports the feed streaming: a backlog still there is reported again at once.
            backlogSince = nil
            return [.reportState(.listening)] + backlog(at: now)
        default:
            return []
        }
    }

    /// No answer within ``PostgresStore/ListenerOptions/pingTimeout``: the server process is stopped or stuck
    /// (TCP keepalives, answered by the kernel, see nothing wrong).
    mutating func pingTimedOut(at now: ContinuousClock.Instant) -> [Action] {
        lose(
            "the server process did not answer a ping within \(options.pingTimeout) (stopped or stuck); "
                + "opening a new connection", at: now)
    }
}
