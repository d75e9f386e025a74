import FetchKitBackendKit

/// The change listener's decisions, without its I/O: how notifications become one change per transaction, how
/// far behind the server it is (its probes), and when to publish a resync. Its connection's supervision — which
/// state it is in, when to ping, when to give a connection up, how long to wait before connecting again — is its
/// ``ConnectionSupervisor``'s.
///
/// ``PostgresListener``'s thread does the I/O — `poll()`, libpq, the feed, the write completions — and
/// tells the machine what happened with ``handle(_:at:)``, passing the current instant (the machine reads
/// no clock); it performs the returned ``Action``s in order and, until then, waits for input, a wake or
/// ``deadline``, whichever comes first.
struct ListenerStateMachine {
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

    /// The connection's supervision: its state, pings, stalls and reconnections. The burst's quiet period counts,
    /// as a routine ping's silence does, from its last activity.
    var supervisor: ConnectionSupervisor
    /// The schema whose tables' notifications the listener keeps.
    let schemaName: String
    /// The tables whose primary key is `char(n)`: their keys arrive padded and are read without the padding.
    let paddedKeyTables: Set<String>
    /// The notifications of the transaction being received.
    var group = TransactionGroup()

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
        supervisor = ConnectionSupervisor(
            options: options,
            stallReason: "a write's change was not published within \(options.publishTimeout); "
                + "checking the listener's connection",
            pingTimeoutReason: "the server process did not answer a ping within \(options.pingTimeout) "
                + "(stopped or stuck); opening a new connection")
        self.schemaName = schemaName
        self.paddedKeyTables = paddedKeyTables
        self.references = references
        self.probePrefix = Self.probeMarker + probeToken + ":"
    }

    /// When the machine expects a ``Event/tick(markerAwaited:)`` if nothing happens before; `nil`: never.
    var deadline: ContinuousClock.Instant? {
        guard state == .streaming else { return supervisor.deadline }
        // With a transaction's notifications pending, wait only for the rest of its burst.
        let quiet =
            group.transactionID == nil
            ? supervisor.deadline : supervisor.lastActivity.map { $0 + options.burstQuietPeriod }
        return [quiet, nextProbe].compactMap { $0 }.min()
    }

    /// The transaction whose notifications wait for the end of their burst (or their end marker).
    var pendingTransactionID: Int64? { group.transactionID }

    /// Moves the machine on `event`, which happened at `now`; returns what to do, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .start: supervise(.start, at: now)
        case .connected: supervise(.connected, at: now)
        case .connectionFailed(let error): supervise(.connectionFailed(error), at: now)
        case .inputReceived(let payloads): received(payloads, at: now)
        // A failed read while a ping is out is the ping's failure.
        case .readFailed(let message): supervise(awaitsPing ? .pingFailed(message) : .connectionLost(message), at: now)
        case .connectionLost(let reason): supervise(.connectionLost(reason), at: now)
        case .pingAnswered: supervise(.pingAnswered, at: now)
        case .pingFailed(let message): supervise(.pingFailed(message), at: now)
        case .checkRequested: checkRequested(at: now)
        case .tick(let markerAwaited): tick(markerAwaited: markerAwaited, at: now)
        case .closeRequested: supervise(.closeRequested, at: now)
        case .probeSent: probeSent(at: now)
        case .probeFailed: probeFailed()
        }
    }

    /// A write's change is overdue: does the server process still answer? (A check asked for while a ping is out
    /// is that ping; while reconnecting, there is nothing to check.)
    mutating func checkRequested(at now: ContinuousClock.Instant) -> [Action] {
        state == .streaming ? supervise(.checkRequested, at: now) : []
    }

    /// What a tick at `now` means in the current state. While listening, a due probe goes out, then a pending
    /// transaction's burst ends or, with none pending, the silence is pinged.
    private mutating func tick(markerAwaited: Bool, at now: ContinuousClock.Instant) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        guard state == .streaming else { return supervise(.tick, at: now) }
        var actions = nextProbe.map { now >= $0 } == true ? probe(at: now) : []
        guard group.transactionID != nil else { return actions + supervise(.tick, at: now) }
        if let quiet = supervisor.lastActivity.map({ $0 + options.burstQuietPeriod }), now >= quiet {
            actions += burstEnded(markerAwaited: markerAwaited, at: now)
        }
        return actions
    }
}
