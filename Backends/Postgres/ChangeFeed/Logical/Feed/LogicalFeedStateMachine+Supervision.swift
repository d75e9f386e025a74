extension LogicalFeedStateMachine: SupervisedFeed {
    /// A connection is streaming; `resumed` when its slot continued from its confirmed position.
    mutating func connected(resumed: Bool, at now: ContinuousClock.Instant) -> [Action] {
        assembler.reset()
        unreadable = nil
        slotResumed = resumed
        return supervise(.connected, at: now)
    }

    /// The feed's actions for its supervisor's `action`, at `now`. A connection that is up schedules its
    /// acknowledgements and checks. A new one after a failure, unless its slot resumed, publishes a resync —
    /// whatever committed while nobody streamed must reach the controllers — and completes the waiting writes,
    /// whose transactions may have been lost (the resync covers them); a resumed slot sends them again instead. A
    /// lost connection, or closing, drops the transaction being received (the server sends it again, or the resync
    /// after reconnecting covers it).
    mutating func apply(_ action: ConnectionSupervisor.Action, at now: ContinuousClock.Instant) -> [Action] {
        switch action {
        case .connect: return [.connect]
        case .started:
            stream(at: now)
            return [.started]
        case .startFailed: return [.startFailed]
        case .reconnected(let attempts):
            stream(at: now)
            return [.reconnected(attempts: attempts)] + (slotResumed ? [] : [.publishResync, .completeAllWrites])
        case .ping: return [status(replyRequested: true, at: now)]
        case .reportState(.listening):
            // Listening reports the feed streaming: a backlog is reported again after it.
            backlogSince = nil
            return [.reportState(.listening)]
        case .reportState(let state): return [.reportState(state)]
        case .disconnect(let reason):
            assembler.abandonTransaction()
            return [.disconnect(reason: reason)]
        case .completeAllWrites: return [.completeAllWrites]
        case .close:
            assembler.abandonTransaction()
            return [.close]
        }
    }
}
