import FetchKitBackendKit

/// The logical-replication feed's decisions, without its I/O: which state it is in, what the stream's messages
/// mean, what to publish, when to acknowledge the log, when to ping the server, when to give the connection up
/// and how long to wait before connecting again.
///
/// ``LogicalFeed``'s thread does the I/O — `ppoll()`, libpq's CopyBoth calls, the change feed, the write
/// completions — and tells the machine what happened with ``handle(_:at:)``, passing the current instant; it
/// performs the returned ``Action``s in order and, until then, waits for input, a wake or ``deadline``.
///
/// A temporary slot dies with its connection, so after a reconnection the machine publishes a resync; a
/// persistent slot resumes from its confirmed position, so nothing is missed and nothing is resynced (a
/// transaction the server sends again is skipped).
struct LogicalFeedStateMachine {
    /// Where the feed is.
    enum State: Equatable {
        /// Opening the first connection: its failure ends the feed before it starts.
        case starting
        /// Streaming, no ping out.
        case streaming
        /// A ping (a status update asking for a reply) is out; the connection is given up at `deadline`.
        case pinging(deadline: ContinuousClock.Instant)
        /// A write's change is overdue: a ping is out, and the connection is given up at `deadline`.
        case stalled(reason: String, deadline: ContinuousClock.Instant)
        /// The connection broke: attempt `attempt` opens a new one at `retryAt`, `delay` after the failure.
        case waitingToReconnect(attempt: Int, lastError: String, delay: Duration, retryAt: ContinuousClock.Instant)
        /// Opening a new connection: attempt `attempt`, made after waiting `delay`.
        case reconnecting(attempt: Int, lastError: String, delay: Duration)
        /// Closed.
        case stopped
    }

    /// What the feed's thread saw.
    enum Event {
        /// The thread started: open the first connection.
        case start
        /// A connection is streaming; `resumed` when its slot continued from its confirmed position (a
        /// persistent slot that existed), so nothing committed in between was missed.
        case connected(resumed: Bool)
        /// Opening a connection failed, with this error.
        case connectionFailed(String)
        /// The stream's `CopyData` messages that arrived, in order.
        case received([[UInt8]])
        /// The connection broke (a failed read, the stream ended, `poll()` failed), for this reason.
        case connectionLost(String)
        /// A write's change is overdue (``PostgresStore/ListenerOptions/publishTimeout``): check the connection.
        case checkRequested
        /// The publication was checked: `repaired` when it no longer named exactly the store's tables and was
        /// put right.
        case publicationChecked(repaired: Bool)
        /// The end of the server's log, read now (``Action/readServerPosition``).
        case serverPosition(LogPosition)
        /// Nothing happened until ``deadline``.
        case tick
        /// ``LogicalFeed/stop()`` was called.
        case closeRequested
    }

    /// What the feed's thread does next.
    enum Action: Equatable {
        /// Open a connection, start streaming, and report ``Event/connected(resumed:)`` or
        /// ``Event/connectionFailed(_:)``.
        case connect
        /// The first connection is up: the feed has started.
        case started
        /// The first connection failed: the feed does not start (its error is the start's).
        case startFailed
        /// Publish one committed transaction's change and complete the store write that made it.
        case publish(LogTransaction)
        /// Publish a resync: changes may have been missed.
        case publishResync
        /// Tell the store's controllers that the feed missed changes for this reason (``FeedDelivery``): they are
        /// not live until the resync that follows.
        case interruptDelivery(String)
        /// Log a part of the stream that could not be read.
        case reportUnreadable(String)
        /// Complete every waiting write (a resync covers them, or the feed stopped).
        case completeAllWrites
        /// Complete the writes that committed before `position`: the log is handed on up to there.
        case completeWrites(through: LogPosition)
        /// Check that the publication names exactly the store's tables, putting it right if not; report
        /// ``Event/publicationChecked(repaired:)``.
        case checkPublication
        /// Send a standby status update: everything before `applied` is handed on; `replyRequested` pings.
        case sendStatus(applied: LogPosition, received: LogPosition, replyRequested: Bool)
        /// Read the end of the server's log; report ``Event/serverPosition(_:)``.
        case readServerPosition
        /// Tell the store's controllers since when the feed has not received what the server logged (`nil`: it
        /// has received everything it was told of).
        case reportBacklog(since: ContinuousClock.Instant?)
        /// Publish the feed's new state.
        case reportState(PostgresListener.State)
        /// Log the lost connection and close it.
        case disconnect(reason: String)
        /// Count and log a reconnection after `attempts` attempts.
        case reconnected(attempts: Int)
        /// Close the connection, if any, and end the thread.
        case close
    }

    let options: PostgresStore.ListenerOptions
    /// How often, at most, the machine acknowledges the log while transactions flow.
    let statusInterval: Duration
    /// Where the feed is (set only by the machine's transitions).
    var state = State.starting
    /// Folds the stream's messages into transactions.
    var assembler: LogTransactionAssembler
    /// The end of the last transaction handed on (or of the log the server said it had sent while no
    /// transaction was open): what the slot may confirm.
    var applied = LogPosition.zero
    /// The furthest position the server said it had sent.
    var received = LogPosition.zero
    /// The last input, or the last ping's sending: the silence before a ping counts from it.
    var lastActivity: ContinuousClock.Instant?
    /// When the last status update went out.
    var lastStatus: ContinuousClock.Instant?
    /// The position the last status update confirmed.
    var lastConfirmed = LogPosition.zero
    /// The position up to which waiting writes were completed.
    var lastCompleted = LogPosition.zero
    /// When the publication is next checked, while streaming.
    var nextPublicationCheck: ContinuousClock.Instant?
    /// When the server's position is next read, while streaming.
    var nextLagCheck: ContinuousClock.Instant?
    /// Positions the server's log had reached, each with when it was read, that the feed has not received yet: oldest
    /// first.
    var unreceived: [(at: ContinuousClock.Instant, position: LogPosition)] = []
    /// The backlog last reported (``Action/reportBacklog(since:)``).
    var backlogSince: ContinuousClock.Instant?
    /// When the server's log was last read at a position the feed has received.
    var caughtUpAt: ContinuousClock.Instant?
    /// Why the transaction being received cannot be trusted, while its rest is skipped (published as a resync
    /// at its commit).
    var unreadable: String?

    init(
        options: PostgresStore.ListenerOptions, assembler: LogTransactionAssembler,
        statusInterval: Duration = .seconds(1)
    ) {
        self.options = options
        self.assembler = assembler
        self.statusInterval = statusInterval
    }

    /// When the machine expects a ``Event/tick`` if nothing happens before; `nil`: never.
    var deadline: ContinuousClock.Instant? {
        switch state {
        case .streaming:
            let ping = lastActivity.map { $0 + options.pingInterval }
            // An acknowledgement that is due once the interval since the last one has passed.
            let status = applied > lastConfirmed ? lastStatus.map { $0 + statusInterval } : nil
            return [ping, status, nextPublicationCheck, nextLagCheck].compactMap { $0 }.min()
        case .pinging(let deadline), .stalled(_, let deadline): return deadline
        case .waitingToReconnect(_, _, _, let retryAt): return retryAt
        case .starting, .reconnecting, .stopped: return nil
        }
    }

    /// Whether the feed has a working connection (streaming, maybe pinging).
    var isConnected: Bool {
        switch state {
        case .streaming, .pinging, .stalled: true
        default: false
        }
    }

    /// Moves the machine on `event`, which happened at `now`; returns what to do, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .start: return state == .starting ? [.connect] : []
        case .connected(let resumed): return connected(resumed: resumed, at: now)
        case .connectionFailed(let error): return connectionFailed(error, at: now)
        case .received(let messages): return isConnected ? received(messages, at: now) : []
        case .connectionLost(let reason): return isConnected ? lose(reason, at: now) : []
        case .checkRequested: return checkRequested(at: now)
        case .publicationChecked(let repaired): return publicationChecked(repaired: repaired, at: now)
        case .serverPosition(let position): return serverPosition(position, at: now)
        case .tick: return tick(at: now)
        case .closeRequested: return close()
        }
    }

    /// Changes to a table missing from the publication were not streamed: the controllers leave `.live`, and
    /// return to it once they applied the resync that refetches them.
    private mutating func publicationChecked(repaired: Bool, at now: ContinuousClock.Instant) -> [Action] {
        guard repaired else { return [] }
        let reason = "a table was missing from the publication"
        switch state {
        case .streaming, .pinging:
            // Listening reports the feed streaming: a backlog is reported again after it.
            backlogSince = nil
            return [.interruptDelivery(reason), .publishResync, .reportState(.listening)] + backlog(at: now)
        // Streaming again (after the stall's check, or reconnecting) reports listening after this resync.
        case .stalled, .waitingToReconnect, .reconnecting: return [.interruptDelivery(reason), .publishResync]
        case .starting, .stopped: return []
        }
    }

    /// A write's change is overdue: ping, unless a ping is already out.
    private mutating func checkRequested(at now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .streaming, .pinging:
            let reason = "a write's change is overdue; checking the replication connection"
            state = .stalled(reason: reason, deadline: now + options.pingTimeout)
            lastActivity = now
            return [.reportState(.stalled(reason: reason)), status(replyRequested: true, at: now)]
        default:
            return []
        }
    }

    /// What a tick at `now` means in the current state.
    private mutating func tick(at now: ContinuousClock.Instant) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        switch state {
        case .streaming:
            if let check = nextPublicationCheck, now >= check {
                nextPublicationCheck = now + options.publicationCheckInterval
                return [.checkPublication]
            }
            if let check = nextLagCheck, now >= check {
                nextLagCheck = now + options.lagCheckInterval
                // The reply to a status that asks for one says how far the server has read, past transactions it
                // does not send (none of the publication's tables).
                return [.readServerPosition, status(replyRequested: true, at: now)]
            }
            if let lastActivity, now >= lastActivity + options.pingInterval {
                state = .pinging(deadline: now + options.pingTimeout)
                self.lastActivity = now
                return [status(replyRequested: true, at: now)]
            }
            return [status(replyRequested: false, at: now)]
        case .pinging, .stalled:
            return lose("the server did not answer a status update within \(options.pingTimeout)", at: now)
        case .waitingToReconnect(let attempt, let lastError, let delay, _):
            state = .reconnecting(attempt: attempt, lastError: lastError, delay: delay)
            return [.connect]
        case .starting, .reconnecting, .stopped:
            return []
        }
    }

    /// A status update confirming ``applied``, sent at `now`.
    mutating func status(replyRequested: Bool, at now: ContinuousClock.Instant) -> Action {
        lastStatus = now
        lastConfirmed = applied
        return .sendStatus(applied: applied, received: max(received, applied), replyRequested: replyRequested)
    }

    /// Stops from any state but ``State/stopped``; a transaction being received is not published (the store
    /// is closing).
    private mutating func close() -> [Action] {
        guard state != .stopped else { return [] }
        state = .stopped
        assembler.abandonTransaction()
        return [.close, .reportState(.stopped), .completeAllWrites]
    }
}
