/// The delivery-lag monitor: while changes wait to be routed or applied, it measures every controller's lag
/// a few times a second, lets each report it in its status (``ResultsStatus/catchingUp(lag:)``) and records
/// the largest in `fetchkit_delivery_lag_seconds`. It runs only while there is a backlog: the first change
/// after a quiet spell starts it, and it stops once nothing waits and no controller reports itself behind.
extension ChangeRouter {
    /// How often the monitor measures.
    static let lagInterval = Duration.milliseconds(250)

    /// Starts the monitor (``RouterInbox/receive(_:)`` said it is not running).
    func startLagMonitor() {
        Task { [weak self] in
            while true {
                // Throws only when the task is cancelled, and nothing cancels it: it ends by itself once no
                // backlog is left (`measureLag()` returns false), and when the router is gone.
                try? await Task.sleep(for: Self.lagInterval)
                guard let self else { return }
                if !self.measureLag() { return }
            }
        }
    }

    /// Measures every controller that may be behind; returns `false` when the monitor stopped.
    func measureLag() -> Bool {
        let now = ContinuousClock.now
        let unrouted = inbox.oldestUnrouted
        // Changes not yet routed may concern any controller; otherwise those applying changes, and those that
        // said they are behind, until they say they are not.
        let targets = state.withLock { state -> [(Int, any RouteTarget)] in
            let ids = unrouted == nil ? state.busy.union(state.lagging) : Set(state.entries.keys)
            return ids.compactMap { id in state.entries[id]?.target.map { (id, $0) } }
        }
        var largest = Duration.zero
        var behind: [Int] = []
        var caughtUp: [Int] = []
        for (id, target) in targets {
            let (lag, isBehind) = target.observeLag(unroutedSince: unrouted, at: now)
            largest = max(largest, lag)
            if isBehind { behind.append(id) } else { caughtUp.append(id) }
        }
        metrics.deliveryLag.record(Double(largest.components.seconds) + Double(largest.components.attoseconds) / 1e18)
        let idle = state.withLock { state -> Bool in
            state.lagging.formUnion(behind.filter { state.entries[$0] != nil })
            state.lagging.subtract(caughtUp)
            return state.busy.isEmpty && state.lagging.isEmpty
        }
        guard inbox.stopMonitor(controllersIdle: idle) else { return true }
        metrics.deliveryLag.record(0)
        return false
    }
}
