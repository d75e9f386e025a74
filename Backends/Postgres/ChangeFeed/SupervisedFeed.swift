/// A change feed's state machine that leaves its connection's supervision to a ``ConnectionSupervisor``: it
/// forwards the connection's events to it (``supervise(_:at:)``) and turns each of the supervisor's actions into its
/// own (``apply(_:at:)``), adding what only the feed knows.
protocol SupervisedFeed {
    /// What the feed's thread does next.
    associatedtype Action

    /// The connection's supervision.
    var supervisor: ConnectionSupervisor { get set }

    /// The feed's actions for the supervisor's `action`, decided at `now`, in order; the feed's own state follows it
    /// (a pending transaction dropped with its connection, a new connection's counters reset).
    mutating func apply(_ action: ConnectionSupervisor.Action, at now: ContinuousClock.Instant) -> [Action]
}

extension SupervisedFeed {
    /// Tells the supervisor `event`, which happened at `now`; returns the feed's actions for the supervisor's, in
    /// order.
    mutating func supervise(_ event: ConnectionSupervisor.Event, at now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        for action in supervisor.handle(event, at: now) { actions += apply(action, at: now) }
        return actions
    }

    /// How the feed keeps its connection alive and reconnects.
    var options: PostgresStore.ListenerOptions { supervisor.options }

    /// Where the feed's connection is.
    var state: ConnectionSupervisor.State { supervisor.state }

    /// Whether the feed has a working connection (streaming, maybe pinging).
    var isConnected: Bool { supervisor.isConnected }

    /// Whether a ping is out: the thread reads its answer along with the input.
    var awaitsPing: Bool { supervisor.awaitsPing }
}
