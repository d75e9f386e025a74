import FetchKitBackendKit

extension LogicalFeedStateMachine {
    /// Messages arrived: any answers a ping. Each transaction the log commits is published once; the log's end
    /// while no transaction is open counts as handed on; the acknowledgement goes out when it is due.
    mutating func received(_ messages: [[UInt8]], at now: ContinuousClock.Instant) -> [Action] {
        var actions = supervise(.activity, at: now) + supervise(.pingAnswered, at: now)
        for bytes in messages {
            let message: ReplicationStreamMessage
            do {
                message = try ReplicationStreamMessage(decoding: bytes)
            } catch {
                return actions + supervise(.connectionLost("\(error)"), at: now)
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

    /// A connection streams from `now`: its acknowledgements and checks are scheduled from then.
    mutating func stream(at now: ContinuousClock.Instant) {
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
