import FetchKitBackendKit

/// The change listener's decisions, without its I/O: which state it is in, how notifications become one
/// change per transaction, when to ping, when to give a connection up, how long to wait before connecting
/// again, and when to publish a resync.
///
/// ``PostgresListener``'s thread does the I/O — `poll()`, libpq, the feed, the write completions — and
/// tells the machine what happened with ``handle(_:at:)``, passing the current instant (the machine reads
/// no clock); it performs the returned ``Action``s in order and, until then, waits for input, a wake or
/// ``deadline``, whichever comes first.
struct ListenerStateMachine {
    /// Where the listener is.
    enum State: Equatable {
        /// Opening the first connection: its failure ends the listener before it starts.
        case starting
        /// Connected, `LISTEN` issued, no ping out: changes flow.
        case listening
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

    /// What the listener's thread saw.
    enum Event {
        /// The thread started: open the first connection.
        case start
        /// A connection opened and issued `LISTEN`.
        case connected
        /// Opening a connection failed, with this error.
        case connectionFailed(String)
        /// The connection's input was read: the payloads of the notifications it held, maybe none.
        case inputReceived([String])
        /// Reading the connection failed, with libpq's message.
        case readFailed(String)
        /// The connection broke otherwise (closed by the server, `poll()` failed), for this reason.
        case connectionLost(String)
        /// The ping's answer arrived.
        case pingAnswered
        /// The ping could not be sent or returned an error, with libpq's message.
        case pingFailed(String)
        /// A write's change is overdue (``PostgresStore/ListenerOptions/publishTimeout``): check the connection.
        case checkRequested
        /// Nothing happened until ``deadline``. `markerAwaited` says whether a store write still awaits the end
        /// marker of the transaction whose notifications are pending (``pendingTransactionID``).
        case tick(markerAwaited: Bool)
        /// ``PostgresListener/stop()`` was called.
        case closeRequested
        /// The probe ``Action/sendProbe(_:)`` asked for was sent: it is out from now on.
        case probeSent
        /// The probe ``Action/sendProbe(_:)`` asked for could not be sent (it will not arrive).
        case probeFailed
    }

    /// What the listener's thread does next.
    enum Action: Equatable {
        /// Open a connection, issue `LISTEN`, and report ``Event/connected`` or ``Event/connectionFailed(_:)``.
        case connect
        /// The first connection is up: the listener has started.
        case started
        /// The first connection failed: the listener does not start (its error is the start's).
        case startFailed
        /// Send `SELECT 1` without waiting; report its answer with ``Event/pingAnswered`` or
        /// ``Event/pingFailed(_:)``.
        case sendPing
        /// Publish one transaction's change.
        case publish([String: TableChange])
        /// Publish a resync: changes may have been missed.
        case publishResync
        /// Log a notification payload that could not be read.
        case reportUnreadable(payload: String)
        /// A store write's transaction is published: complete its wait.
        case completeTransaction(Int64)
        /// Complete every waiting write (a resync covers them, or the listener stopped).
        case completeAllWrites
        /// Publish the listener's new state.
        case reportState(PostgresListener.State)
        /// Log the lost connection and close it.
        case disconnect(reason: String)
        /// Count and log a reconnection after `attempts` attempts.
        case reconnected(attempts: Int)
        /// Close the connection, if any, and end the thread.
        case close
        /// Notify this payload on the channel from another session: when it arrives, everything committed before
        /// it has (the server delivers notifications in commit order). Report ``Event/probeFailed`` if it cannot.
        case sendProbe(String)
        /// Tell the store's controllers since when the listener has not received what the server committed
        /// (`nil`: its last probe arrived).
        case reportBacklog(since: ContinuousClock.Instant?)
    }

    let options: PostgresStore.ListenerOptions
    /// The schema whose tables' notifications the listener keeps.
    let schemaName: String
    /// The tables whose primary key is `char(n)`: their keys arrive padded and are read without the padding.
    let paddedKeyTables: Set<String>
    /// Where the listener is (set only by the machine's transitions).
    var state = State.starting
    /// The notifications of the transaction being received.
    var group = TransactionGroup()
    /// The last input, ping answer or check while listening: the burst's quiet period and the silence before a
    /// routine ping count from it.
    var lastActivity: ContinuousClock.Instant?

    /// The followed foreign-key columns whose values the triggers report.
    let references: PostgresReferenceColumns
    /// What this listener's probes start with (``Action/sendProbe(_:)``): other listeners on the channel ignore
    /// them.
    let probePrefix: String
    /// The probes sent and not yet arrived, oldest first, with when each was sent.
    var probes: [(id: UInt64, sentAt: ContinuousClock.Instant)] = []
    var nextProbeID: UInt64 = 0
    /// When the next probe goes out, while listening.
    var nextProbe: ContinuousClock.Instant?
    /// The backlog last reported (``Action/reportBacklog(since:)``).
    var backlogSince: ContinuousClock.Instant?
    /// When the last probe that arrived was sent (or the listener connected).
    var caughtUpAt: ContinuousClock.Instant?
    /// When an overdue probe last made the listener check its connection.
    var lastProbeCheck: ContinuousClock.Instant?

    /// The start of every probe's payload, whichever listener sent it.
    static let probeMarker = "fetchkit-probe:"

    init(
        options: PostgresStore.ListenerOptions, schemaName: String, paddedKeyTables: Set<String> = [],
        references: PostgresReferenceColumns = .init(), probeToken: String = "listener"
    ) {
        self.options = options
        self.schemaName = schemaName
        self.paddedKeyTables = paddedKeyTables
        self.references = references
        self.probePrefix = Self.probeMarker + probeToken + ":"
    }

    /// When the machine expects a ``Event/tick(markerAwaited:)`` if nothing happens before; `nil`: never.
    var deadline: ContinuousClock.Instant? {
        switch state {
        case .listening:
            // With a transaction's notifications pending, wait only for the rest of its burst.
            [
                lastActivity.map {
                    $0 + (group.transactionID != nil ? options.burstQuietPeriod : options.pingInterval)
                }, nextProbe
            ].compactMap { $0 }.min()
        case .pinging(let deadline), .stalled(_, let deadline):
            deadline
        case .waitingToReconnect(_, _, _, let retryAt):
            retryAt
        case .starting, .reconnecting, .stopped:
            nil
        }
    }

    /// Whether a ping is out: the thread reads its answer along with the input.
    var awaitsPing: Bool {
        switch state {
        case .pinging, .stalled: true
        default: false
        }
    }

    /// Whether the listener has a working connection (listening, maybe pinging).
    var isConnected: Bool {
        switch state {
        case .listening, .pinging, .stalled: true
        default: false
        }
    }

    /// The transaction whose notifications wait for the end of their burst (or their end marker).
    var pendingTransactionID: Int64? { group.transactionID }

    /// Moves the machine on `event`, which happened at `now`; returns what to do, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .start: state == .starting ? [.connect] : []
        case .connected: connected(at: now)
        case .connectionFailed(let error): connectionFailed(error, at: now)
        case .inputReceived(let payloads): received(payloads, at: now)
        case .readFailed(let message):
            isConnected ? lose(awaitsPing ? "ping failed: \(message)" : message, at: now) : []
        case .connectionLost(let reason): isConnected ? lose(reason, at: now) : []
        case .pingAnswered: pingAnswered(at: now)
        case .pingFailed(let message): awaitsPing ? lose("ping failed: \(message)", at: now) : []
        case .checkRequested: checkRequested(at: now)
        case .tick(let markerAwaited): tick(markerAwaited: markerAwaited, at: now)
        case .closeRequested: close()
        case .probeSent: probeSent(at: now)
        case .probeFailed: probeFailed()
        }
    }

    /// Stops from any state but ``State/stopped``; notifications still pending are not published (the store
    /// is closing).
    private mutating func close() -> [Action] {
        guard state != .stopped else { return [] }
        state = .stopped
        group = TransactionGroup()
        return [.close, .reportState(.stopped), .completeAllWrites]
    }

    /// What a tick at `now` means in the current state.
    private mutating func tick(markerAwaited: Bool, at now: ContinuousClock.Instant) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        switch state {
        case .listening:
            var actions = nextProbe.map { now >= $0 } == true ? probe(at: now) : []
            let quiet = lastActivity.map {
                now >= $0 + (group.transactionID != nil ? options.burstQuietPeriod : options.pingInterval)
            }
            guard quiet == true else { return actions }
            actions += group.transactionID != nil ? burstEnded(markerAwaited: markerAwaited, at: now) : ping(at: now)
            return actions
        case .pinging, .stalled: return pingTimedOut(at: now)
        case .waitingToReconnect(let attempt, let lastError, let delay, _): return retry(attempt, lastError, delay)
        case .starting, .reconnecting, .stopped: return []
        }
    }
}
