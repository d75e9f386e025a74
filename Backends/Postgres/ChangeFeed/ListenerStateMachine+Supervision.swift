extension ListenerStateMachine: SupervisedFeed {
    /// The listener's actions for its supervisor's `action`, at `now`. A connection that is up forgets the probes
    /// out; a new one after a failure publishes a resync — whatever committed while nobody listened must reach the
    /// controllers — and completes the waiting writes, whose end markers may have been lost (the resync covers
    /// them). A lost connection publishes the transaction being received (its notifications arrived whole: they
    /// are sent at commit); closing drops it (the store is closing).
    mutating func apply(_ action: ConnectionSupervisor.Action, at now: ContinuousClock.Instant) -> [Action] {
        switch action {
        case .connect: return [.connect]
        case .started:
            resetProbes(at: now)
            return [.started]
        case .startFailed: return [.startFailed]
        case .reconnected(let attempts):
            resetProbes(at: now)
            return [.reconnected(attempts: attempts), .publishResync, .completeAllWrites]
        case .ping: return [.sendPing]
        case .reportState(.listening):
            // Listening reports the feed streaming: a backlog still there is reported again at once.
            backlogSince = nil
            return [.reportState(.listening)] + backlog(at: now)
        case .reportState(let state): return [.reportState(state)]
        case .disconnect(let reason): return [.disconnect(reason: reason)] + flush()
        case .completeAllWrites: return [.completeAllWrites]
        case .close:
            group = TransactionGroup()
            return [.close]
        }
    }
}
