import FetchKitBackendKit

extension LogicalFeedStateMachine {
    /// A connection is streaming. The first one starts the feed. A later one, unless its slot resumed, publishes
    /// a resync — whatever committed while nobody streamed must reach the controllers — and completes the
    /// waiting writes, whose transactions may have been lost (the resync covers them); a resumed slot sends
    /// them again instead.
    mutating func connected(resumed: Bool, at now: ContinuousClock.Instant) -> [Action] {
        assembler.reset()
        unreadable = nil
        switch state {
        case .starting:
            stream(at: now)
            return [.started]
        case .reconnecting(let attempt, _, _):
            stream(at: now)
            let catchUp: [Action] = resumed ? [] : [.publishResync, .completeAllWrites]
            // Listening is reported after the resync: the controllers are live again once they applied it.
            return [.reconnected(attempts: attempt)] + catchUp + [.reportState(.listening)]
        default:
            return []
        }
    }

    /// Opening a connection failed: the first one ends the feed; a later one waits twice as long as the last
    /// (at most the upper bound of ``PostgresStore/ListenerOptions/reconnectBackoff``) before trying again.
    mutating func connectionFailed(_ error: String, at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .starting:
            state = .stopped
            return [.startFailed]
        case .reconnecting(let attempt, _, let delay):
            // Writes waiting for their changes return now rather than wait out the outage.
            let completions: [Action] = attempt == 1 ? [.completeAllWrites] : []
            let next = min(delay * 2, options.reconnectBackoff.upperBound)
            state = .waitingToReconnect(attempt: attempt + 1, lastError: error, delay: next, retryAt: now + next)
            return completions + [.reportState(.reconnecting(attempt: attempt + 1, lastError: error))]
        default:
            return []
        }
    }

    /// The connection broke for `reason`: closes it, drops the transaction being received (the server sends
    /// it again, or the resync after reconnecting covers it) and waits the lower bound of
    /// ``PostgresStore/ListenerOptions/reconnectBackoff`` before the first attempt.
    mutating func lose(_ reason: String, at now: ContinuousClock.Instant) -> [Action] {
        let delay = options.reconnectBackoff.lowerBound
        assembler.abandonTransaction()
        state = .waitingToReconnect(attempt: 1, lastError: reason, delay: delay, retryAt: now + delay)
        lastActivity = nil
        return [.disconnect(reason: reason), .reportState(.reconnecting(attempt: 1, lastError: reason))]
    }

    /// Messages arrived: any answers a ping. Each transaction the log commits is published once; the log's end
    /// while no transaction is open counts as handed on; the acknowledgement goes out when it is due.
    mutating func received(_ messages: [[UInt8]], at now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        lastActivity = now
        switch state {
        case .pinging: state = .streaming
        case .stalled:
            state = .streaming
            actions.append(.reportState(.listening))
            // Listening reports the feed streaming: a backlog is reported again after it.
            backlogSince = nil
        default: break
        }
        for bytes in messages {
            let message: ReplicationStreamMessage
            do {
                message = try ReplicationStreamMessage(decoding: bytes)
            } catch {
                return actions + lose("\(error)", at: now)
            }
            switch message {
            case .keepalive(let end, _, let replyRequested):
                received = max(received, end)
                if !assembler.isInTransaction && unreadable == nil { applied = max(applied, end) }
                if replyRequested { actions.append(status(replyRequested: false, at: now)) }
            case .logData(_, let end, let sentAt, let payload):
                received = max(received, end)
                actions += take(payload, sentAt: sentAt)
            }
        }
        if applied > lastCompleted {
            lastCompleted = applied
            actions.append(.completeWrites(through: applied))
        }
        actions += backlog(at: now)
        if applied > lastConfirmed, lastStatus.map({ now >= $0 + statusInterval }) ?? true {
            actions.append(status(replyRequested: false, at: now))
        }
        return actions
    }

    /// One `pgoutput` message: a committed transaction it completes is published, unless it was handed on
    /// before (a resumed slot sends from its confirmed position). A message that cannot be read or trusted
    /// spoils its transaction, which is then published as a resync at its commit.
    private mutating func take(_ payload: [UInt8], sentAt: Int64) -> [Action] {
        let message: PgOutputMessage
        do {
            message = try PgOutputMessage(decoding: payload)
        } catch {
            return spoil("\(error)")
        }
        if let reason = unreadable {
            switch message {
            case .relation:
                // Cannot fail: a Relation only records the table's description (later changes are read by it).
                _ = try? assembler.receive(message)
                return []
            case .commit(_, let end, _):
                unreadable = nil
                applied = max(applied, end)
                return [.reportUnreadable(reason), .publishResync, .completeAllWrites]
            default:
                return []
            }
        }
        do {
            guard let transaction = try assembler.receive(message, sentAt: sentAt), transaction.end > applied else {
                return []
            }
            applied = transaction.end
            return [.publish(transaction)]
        } catch {
            return spoil("\(error)")
        }
    }

    /// The transaction being received cannot be trusted, for `reason`: skip the rest of it.
    private mutating func spoil(_ reason: String) -> [Action] {
        assembler.abandonTransaction()
        unreadable = reason
        return []
    }

    /// Streaming from `now`, no ping out.
    private mutating func stream(at now: ContinuousClock.Instant) {
        state = .streaming
        lastActivity = now
        lastStatus = now
        nextPublicationCheck = now + options.publicationCheckInterval
        nextLagCheck = now + options.lagCheckInterval
        // A new connection: reporting listening clears what was reported of the backlog.
        unreceived = []
        backlogSince = nil
        caughtUpAt = now
    }

    /// The server's log reached `position` at `now`: unless the feed has received it, the feed is
    /// behind the database since then.
    mutating func serverPosition(_ position: LogPosition, at now: ContinuousClock.Instant) -> [Action] {
        guard isConnected else { return [] }
        if position <= received {
            // Everything logged so far has reached the feed.
            if unreceived.isEmpty { caughtUpAt = now }
        } else if position > (unreceived.last?.position ?? .zero) {
            unreceived.append((now, position))
        }
        return backlog(at: now)
    }

    /// Forgets the positions the feed has received; reports since when it is behind, when that changed: since the
    /// last reading whose position it has received — everything the server had logged by then has reached the
    /// feed, so what it lacks came later, and the lag counted from there is never less than the real one. A
    /// position read a moment before the feed receives it is no backlog: the feed reports one once a position has
    /// been out for a whole ``PostgresStore/ListenerOptions/lagCheckInterval``, or its last received reading is
    /// two intervals old (readings the thread could not take on time).
    mutating func backlog(at now: ContinuousClock.Instant) -> [Action] {
        let received = self.received
        while let first = unreceived.first, first.position <= received {
            caughtUpAt = max(caughtUpAt ?? first.at, first.at)
            unreceived.removeFirst()
        }
        let since = FeedBacklog.since(
            oldestOut: unreceived.first?.at, caughtUpAt: caughtUpAt, now: now, interval: options.lagCheckInterval)
        guard since != backlogSince else { return [] }
        backlogSince = since
        return [.reportBacklog(since: since)]
    }
}
