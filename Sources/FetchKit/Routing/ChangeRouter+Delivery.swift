/// Whether the store's feed delivers (``FeedDelivery``): an interruption reaches every controller at once, ahead
/// of the changes waiting to be routed; the return to streaming reaches them behind those changes, so a
/// controller reads `.live` again only once it has applied the resync that covers the interruption.
extension ChangeRouter {
    /// The feed cannot deliver, as its change `id` said: every controller leaves `.live`.
    func deliveryInterrupted(_ error: FetchKitError, id: UInt64) {
        let targets = state.withLock { state -> [any RouteTarget] in
            state.interruption = (error, id)
            return state.entries.values.compactMap(\.target)
        }
        // Released after the lock: a controller's deinit unregisters it, which takes the lock.
        logger.info(
            "the change feed cannot deliver; live controllers are not live until it resyncs",
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
        logger.info("the change feed delivers again", metadata: ["controllers": "\(targets.count)"])
        for target in targets { target.feedResumed(id: id) }
    }
}
