/// The controller's delivery lag: how long ago the oldest change it has not applied was published — still
/// waiting to be routed, waiting in its queue, or being applied — and what its status says of it
/// (``ResultsStatus/catchingUp(lag:)`` past a second, see ``DeliveryLag``).
extension ResultsController {
    func observeLag(unroutedSince: ContinuousClock.Instant?, at now: ContinuousClock.Instant) -> (
        lag: Duration, isBehind: Bool
    ) {
        updateLagStatus(unroutedSince: unroutedSince, at: now)
    }

    /// Measures the lag at `now`, counting changes not yet routed since `unroutedSince`, and sets the status
    /// from it while the controller follows the store (``ResultsStatus/live`` or
    /// ``ResultsStatus/catchingUp(lag:)``; any other status is left alone).
    @discardableResult
    func updateLagStatus(unroutedSince: ContinuousClock.Instant?, at now: ContinuousClock.Instant) -> (
        lag: Duration, isBehind: Bool
    ) {
        let queued = queue.withLock { $0.oldestUnapplied }
        let since = [queued, unroutedSince].compactMap { $0 }.min()
        let lag = since.map { max(.zero, now - $0) } ?? .zero
        let (effects, isBehind) = state.withLock { state in
            (decide(.lagMeasured(lag), in: &state), state.machine.lag.isBehind)
        }
        perform(effects)
        return (lag, isBehind)
    }
}
