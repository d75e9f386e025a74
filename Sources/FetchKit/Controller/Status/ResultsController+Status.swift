/// The failure channel: what the controller's status is, who hears of a change of it, and what a failure
/// does — a transient one retries and resyncs, a permanent one stops the controller. Never silently stale.
extension ResultsController {
    /// Whether the controller follows the database, and if not, why.
    ///
    /// Never ``ResultsStatus/live`` while the controller is further behind the database than
    /// ``catchingUpThreshold``: the lag is measured when the status is read, as well as a few times a second for
    /// ``statusUpdates()``.
    public var status: ResultsStatus {
        let (status, threshold) = state.withLock { ($0.status, $0.machine.lag.threshold) }
        guard status == .live else { return status }
        let lag = self.lag
        return lag > threshold ? .catchingUp(lag: DeliveryLag.rounded(lag)) : .live
    }

    /// How far behind the database the controller is now: the time since the oldest committed change it has
    /// not applied was committed — still in the feed (PostgreSQL's logical feed measures what the server has not
    /// sent yet), waiting to be routed, or queued and being applied. Zero when it shows everything.
    public var lag: Duration {
        let queued = queue.withLock { $0.oldestUnapplied }
        let since = [queued, router.inbox.oldestUnrouted].compactMap { $0 }.min()
        return since.map { max(.zero, ContinuousClock.now - $0) } ?? .zero
    }

    /// How far behind the database the controller may be and still read ``ResultsStatus/live``: past it, its
    /// status is ``ResultsStatus/catchingUp(lag:)`` until the lag is back under half of it. A quarter of a second
    /// unless set: a healthy store delivers in milliseconds, and a person notices a list lagging by more.
    ///
    /// ```swift
    /// controller.catchingUpThreshold = .seconds(1)   // a dashboard that tolerates a second
    /// ```
    public var catchingUpThreshold: Duration {
        get { state.withLock { $0.machine.lag.threshold } }
        set { send(.catchingUpThresholdSet(newValue)) }
    }

    /// The controller's status now, then each change of it.
    ///
    /// A reader that falls behind sees the newest statuses (up to eight wait); the sequence ends when the
    /// controller goes away.
    public func statusUpdates() -> AsyncStream<ResultsStatus> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ResultsStatus.self, bufferingPolicy: .bufferingNewest(8))
        let id = ReaderID.next()
        send(.statusSubscribed(continuation, id: id))
        continuation.onTermination = { [weak self] _ in self?.send(.statusEnded(id: id)) }
        return stream
    }

    /// Handles a failure to apply a change or to catch up: a transient one (``FetchKitError/isTransient``)
    /// makes the controller retry with backoff (``ResultsStatus/resyncing(_:)``); any other stops it
    /// (``ResultsStatus/failed(_:)``).
    func handleFailure(_ error: any Error) {
        send(.readFailed(FetchKitError(wrapping: error)))
    }

    /// Stops the controller: it keeps its results, applies no further change, releases its `sync()` callers,
    /// tells its delegate and ends its update sequences by throwing `error`.
    func fail(with error: FetchKitError) {
        send(.stopped(error))
    }

    /// `true` when a permanent failure stopped the controller.
    var hasFailed: Bool { state.withLock { $0.status.isFailed } }
}

extension ResultsStatus {
    /// `true` for ``failed(_:)``.
    var isFailed: Bool {
        if case .failed = self { true } else { false }
    }
}
