/// The supervision both PostgreSQL change feeds give their connection, without I/O: opening the first one (whose
/// failure ends the feed), pinging after ``PostgresStore/ListenerOptions/pingInterval`` of silence, checking the
/// connection when a write's change is overdue, giving a connection up when a ping goes unanswered for
/// ``PostgresStore/ListenerOptions/pingTimeout``, waiting with exponential backoff
/// (``PostgresStore/ListenerOptions/reconnectBackoff``) before connecting again, and closing.
///
/// A feed's machine (``ListenerStateMachine``, ``LogicalFeedStateMachine``) embeds it (``SupervisedFeed``): it tells
/// the supervisor the events of its connection with ``handle(_:at:)``, passing the current instant (the supervisor
/// reads no clock), and turns the returned ``Action``s into its own, adding what only it knows (its pending
/// transaction, its probes or acknowledgements, its resync on reconnection).
struct ConnectionSupervisor {
    /// Where the connection is.
    enum State: Equatable {
        /// Opening the first connection: its failure ends the feed before it starts.
        case starting
        /// Connected, changes flow, no ping out.
        case streaming
        /// A routine ping (after ``PostgresStore/ListenerOptions/pingInterval`` without input) is out; the
        /// connection is given up at `deadline`.
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

    /// What happened to the connection.
    enum Event {
        /// The feed's thread started: open the first connection.
        case start
        /// A connection opened and streams.
        case connected
        /// Opening a connection failed, with this error.
        case connectionFailed(String)
        /// Input arrived, or the feed restarts the silence that a routine ping waits for.
        case activity
        /// The ping's answer arrived.
        case pingAnswered
        /// The ping could not be sent or returned an error, with this message.
        case pingFailed(String)
        /// The connection broke, for this reason.
        case connectionLost(String)
        /// A write's change is overdue: check the connection.
        case checkRequested
        /// Nothing happened until ``deadline``.
        case tick
        /// The feed is stopping.
        case closeRequested
    }

    /// What the feed does next.
    enum Action: Equatable {
        /// Open a connection and report ``Event/connected`` or ``Event/connectionFailed(_:)``.
        case connect
        /// The first connection is up: the feed has started.
        case started
        /// The first connection failed: the feed does not start.
        case startFailed
        /// A new connection is up after `attempts` attempts: catch up on what was missed; the feed's
        /// ``PostgresListener/State/listening`` is reported next.
        case reconnected(attempts: Int)
        /// Send a ping that the server must answer: ``Event/pingAnswered`` or ``Event/pingFailed(_:)``.
        case ping
        /// Publish the feed's new state.
        case reportState(PostgresListener.State)
        /// Log the lost connection and close it.
        case disconnect(reason: String)
        /// Complete every waiting write: the feed cannot deliver for a while, or it stopped (a resync on
        /// reconnection covers them).
        case completeAllWrites
        /// Close the connection, if any, and end the feed's thread.
        case close
    }

    let options: PostgresStore.ListenerOptions
    /// Why the feed is stalled when a check is requested (``PostgresListener/State/stalled(reason:)``).
    let stallReason: String
    /// Why the connection is given up when a ping goes unanswered.
    let pingTimeoutReason: String
    /// Where the connection is (set only by the supervisor's transitions).
    var state = State.starting
    /// The last activity while connected (input, a ping's answer, the connection's opening; set only by the
    /// supervisor's transitions): the silence before a routine ping counts from it.
    var lastActivity: ContinuousClock.Instant?

    /// A supervisor that has not connected yet; `stallReason` and `pingTimeoutReason` are the reasons it reports.
    init(options: PostgresStore.ListenerOptions, stallReason: String, pingTimeoutReason: String) {
        self.options = options
        self.stallReason = stallReason
        self.pingTimeoutReason = pingTimeoutReason
    }

    /// When the supervisor expects a ``Event/tick`` if nothing happens before (while streaming: when a routine ping
    /// is due); `nil`: never.
    var deadline: ContinuousClock.Instant? {
        switch state {
        case .streaming: lastActivity.map { $0 + options.pingInterval }
        case .pinging(let deadline), .stalled(_, let deadline): deadline
        case .waitingToReconnect(_, _, _, let retryAt): retryAt
        case .starting, .reconnecting, .stopped: nil
        }
    }

    /// Whether a ping is out: its answer is awaited.
    var awaitsPing: Bool {
        switch state {
        case .pinging, .stalled: true
        default: false
        }
    }

    /// Whether the feed has a working connection (streaming, maybe pinging).
    var isConnected: Bool {
        switch state {
        case .streaming, .pinging, .stalled: true
        default: false
        }
    }

    /// Moves the supervisor on `event`, which happened at `now`; returns what to do, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .start: return state == .starting ? [.connect] : []
        case .connected: return connected(at: now)
        case .connectionFailed(let error): return connectionFailed(error, at: now)
        case .activity:
            if isConnected { lastActivity = now }
            return []
        case .pingAnswered: return pingAnswered(at: now)
        case .pingFailed(let message): return awaitsPing ? lose("ping failed: \(message)", at: now) : []
        case .connectionLost(let reason): return isConnected ? lose(reason, at: now) : []
        case .checkRequested: return checkRequested(at: now)
        case .tick: return tick(at: now)
        case .closeRequested: return close()
        }
    }

    /// Stops from any state but ``State/stopped``.
    private mutating func close() -> [Action] {
        guard state != .stopped else { return [] }
        state = .stopped
        lastActivity = nil
        return [.close, .reportState(.stopped), .completeAllWrites]
    }

    /// What a tick at `now` means in the current state: nothing before ``deadline``.
    private mutating func tick(at now: ContinuousClock.Instant) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        switch state {
        case .streaming: return ping(at: now)
        case .pinging, .stalled: return lose(pingTimeoutReason, at: now)
        case .waitingToReconnect(let attempt, let lastError, let delay, _):
            return retry(attempt, lastError, delay)
        case .starting, .reconnecting, .stopped: return []
        }
    }
}
