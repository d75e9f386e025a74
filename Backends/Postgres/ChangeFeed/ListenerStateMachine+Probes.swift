/// How far behind the server the listener is, on the trigger feed: notifications carry no commit time, so every
/// ``PostgresStore/ListenerOptions/lagCheckInterval`` the listener notifies a probe of its own from another
/// session. The server delivers notifications in commit order: when a probe arrives, everything committed before
/// it was sent has arrived. A probe still out after a whole interval means the listener is behind since it was
/// sent (a queue of notifications the listener has not received yet), and the store's controllers count their lag
/// from then (``FeedDelivery/lagging(since:)``). A probe out for twice
/// ``PostgresStore/ListenerOptions/publishTimeout`` (two seconds at least) makes the listener check its connection (a
/// busy server delays notifications by less than that; a stopped server process delivers none).
extension ListenerStateMachine {
    /// A probe is due: send it, and report a backlog if the oldest probe out has been out for an interval. A probe
    /// out for twice ``PostgresStore/ListenerOptions/publishTimeout`` is a change overdue: the listener checks its
    /// connection (a server process that stopped delivers nothing, while the kernel still answers keepalives).
    mutating func probe(at now: ContinuousClock.Instant) -> [Action] {
        nextProbe = now + options.lagCheckInterval
        nextProbeID += 1
        probes.append((nextProbeID, now))
        var actions: [Action] = [.sendProbe(probePrefix + String(nextProbeID))] + backlog(at: now)
        // At most one check per publish timeout: a backlog that outlasts a check that passed is a backlog, not a
        // connection to check ten times a second.
        // At least two seconds: a loaded server delays notifications by that much without being stuck.
        let overdue = max(options.publishTimeout * 2, .seconds(2))
        if let oldest = probes.first, now - oldest.sentAt >= overdue,
            lastProbeCheck.map({ now - $0 >= overdue }) ?? true
        {
            lastProbeCheck = now
            actions += checkRequested(at: now)
        }
        return actions
    }

    /// A notification on the channel: `nil` when it is no probe; else what its arrival means (nothing for
    /// another listener's probe).
    mutating func probeArrived(_ payload: String, at now: ContinuousClock.Instant) -> [Action]? {
        guard payload.hasPrefix(Self.probeMarker) else { return nil }
        guard payload.hasPrefix(probePrefix), let id = UInt64(payload.dropFirst(probePrefix.count)) else { return [] }
        for probe in probes where probe.id <= id { caughtUpAt = max(caughtUpAt ?? probe.sentAt, probe.sentAt) }
        probes.removeAll { $0.id <= id }
        return backlog(at: now)
    }

    /// The probe just asked for was sent: it is out from `now` (the time opening a session took is no backlog).
    mutating func probeSent(at now: ContinuousClock.Instant) -> [Action] {
        if let last = probes.indices.last { probes[last].sentAt = now }
        return []
    }

    /// The probe just asked for was not sent: it will not arrive.
    mutating func probeFailed() -> [Action] {
        if !probes.isEmpty { probes.removeLast() }
        return []
    }

    /// Listening (again) from `now`: no probe is out, and no backlog is reported (listening reports the feed
    /// streaming).
    mutating func resetProbes(at now: ContinuousClock.Instant) {
        probes = []
        backlogSince = nil
        caughtUpAt = now
        nextProbe = now + options.lagCheckInterval
    }

    /// Reports since when the listener is behind, when that changed: since the last probe that arrived was sent
    /// (everything committed before it has arrived), once a probe has been out for an interval or the last
    /// arrival's probe is two intervals old.
    mutating func backlog(at now: ContinuousClock.Instant) -> [Action] {
        let since = FeedBacklog.since(
            oldestOut: probes.first?.sentAt, caughtUpAt: caughtUpAt, now: now, interval: options.lagCheckInterval)
        guard since != backlogSince else { return [] }
        backlogSince = since
        return [.reportBacklog(since: since)]
    }
}
