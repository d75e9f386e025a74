import FetchKitBackendKit

/// The logical-replication feed's decisions, without its I/O: what the stream's messages mean, what to publish,
/// when to acknowledge the log, when to check the publication and how far behind the server the feed is. Its
/// connection's supervision — which state it is in, when to ping the server, when to give the connection up and
/// how long to wait before connecting again — is its ``ConnectionSupervisor``'s.
///
/// ``LogicalFeed``'s thread does the I/O — its wait, libpq's CopyBoth calls, the change feed, the write
/// completions — and tells the machine what happened with ``handle(_:at:)``, passing the current instant; it
/// performs the returned ``Action``s in order and, until then, waits for input, a wake or ``deadline``.
///
/// A temporary slot dies with its connection, so after a reconnection the machine publishes a resync; a
/// persistent slot resumes from its confirmed position, so nothing is missed and nothing is resynced (a
/// transaction the server sends again is skipped).
struct LogicalFeedStateMachine {
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

    /// The connection's supervision: its state, pings, stalls and reconnections.
    var supervisor: ConnectionSupervisor
    /// How often, at most, the machine acknowledges the log while transactions flow.
    let statusInterval: Duration
    /// Whether the current connection's slot resumed from its confirmed position (nothing was missed).
    var slotResumed = false
    /// Folds the stream's messages into transactions.
    var assembler: LogTransactionAssembler
    /// The end of the last transaction handed on (or of the log the server said it had sent while no
    /// transaction was open): what the slot may confirm.
    var applied = LogPosition.zero
    /// The furthest position the server said it had sent.
    var received = LogPosition.zero
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
        supervisor = ConnectionSupervisor(
            options: options, stallReason: "a write's change is overdue; checking the replication connection",
            pingTimeoutReason: "the server did not answer a status update within \(options.pingTimeout)")
        self.assembler = assembler
        self.statusInterval = statusInterval
    }

    /// When the machine expects a ``Event/tick`` if nothing happens before; `nil`: never.
    var deadline: ContinuousClock.Instant? {
        guard state == .streaming else { return supervisor.deadline }
        // An acknowledgement that is due once the interval since the last one has passed.
        let status = applied > lastConfirmed ? lastStatus.map { $0 + statusInterval } : nil
        return [supervisor.deadline, status, nextPublicationCheck, nextLagCheck].compactMap { $0 }.min()
    }

    /// Moves the machine on `event`, which happened at `now`; returns what to do, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .start: supervise(.start, at: now)
        case .connected(let resumed): connected(resumed: resumed, at: now)
        case .connectionFailed(let error): supervise(.connectionFailed(error), at: now)
        case .received(let messages): isConnected ? received(messages, at: now) : []
        case .connectionLost(let reason): supervise(.connectionLost(reason), at: now)
        // A write's change is overdue: ping, unless a check is already out.
        case .checkRequested: supervise(.checkRequested, at: now)
        case .publicationChecked(let repaired): publicationChecked(repaired: repaired, at: now)
        case .serverPosition(let position): serverPosition(position, at: now)
        case .tick: tick(at: now)
        case .closeRequested: supervise(.closeRequested, at: now)
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

    /// What a tick at `now` means in the current state. While streaming, one thing at a time: the publication's
    /// check, the lag's, a ping after silence, or the acknowledgement that is due.
    private mutating func tick(at now: ContinuousClock.Instant) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        guard state == .streaming else { return supervise(.tick, at: now) }
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
        let ping = supervise(.tick, at: now)
        return ping.isEmpty ? [status(replyRequested: false, at: now)] : ping
    }

    /// A status update confirming ``applied``, sent at `now`.
    mutating func status(replyRequested: Bool, at now: ContinuousClock.Instant) -> Action {
        lastStatus = now
        lastConfirmed = applied
        return .sendStatus(applied: applied, received: max(received, applied), replyRequested: replyRequested)
    }
}
