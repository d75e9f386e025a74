import Logging

/// Whether the store's feed delivers (``FeedDelivery``): an interruption reaches every controller at once, ahead
/// of the changes waiting to be routed; the return to streaming reaches them behind those changes, so a
/// controller reads `.live` again only once it has applied the resync that covers the interruption.
extension ChangeRouter {
    /// The feed cannot deliver, as its change `id` said: every controller leaves `.live`.
    func deliveryInterrupted(_ error: FetchKitError, id: UInt64) {
        let (targets, wasDelivering) = state.withLock { state -> ([any RouteTarget], Bool) in
            let wasDelivering = state.interruption == nil
            state.interruption = (error, id)
            return (state.entries.values.compactMap(\.target), wasDelivering)
        }
        // Released after the lock: a controller's deinit unregisters it, which takes the lock. One line at info per
        // outage, for the store: a feed that fails again while it reconnects says so at debug.
        let level: Logger.Level = wasDelivering ? .info : .debug
        logger.log(
            level: level, "the change feed cannot deliver: \(targets.count) live controllers wait for its resync",
            metadata: ["controllers": "\(targets.count)", "reason": "\(error)"])
        for target in targets { target.feedInterrupted(error, id: id) }
    }

    /// The feed delivers again, as its change `id` (just routed) said — unless it was interrupted after that.
    func deliveryResumed(through id: UInt64) {
        let targets = state.withLock { state -> [any RouteTarget]? in
            guard let interruption = state.interruption, interruption.id < id else { return nil }
            state.interruption = nil
            return state.entries.values.compactMap(\.target)
        }
        guard let targets else { return }
        logger.info(
            "the change feed delivers again: \(targets.count) live controllers resync",
            metadata: ["controllers": "\(targets.count)"])
        for target in targets { target.feedResumed(id: id) }
    }
}
