/// The failure channel: what the controller's status is, who hears of a change of it, and what a failure
/// does — a transient one retries and resyncs, a permanent one stops the controller. Never silently stale.
extension ResultsController {
    /// Whether the controller follows the database, and if not, why.
    public var status: ResultsStatus { state.withLock { $0.status } }

    /// The controller's status now, then each change of it.
    ///
    /// A reader that falls behind sees the newest statuses (up to eight wait); the sequence ends when the
    /// controller goes away.
    public func statusUpdates() -> AsyncStream<ResultsStatus> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ResultsStatus.self, bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { state -> Int in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.statusSubscribers[id] = continuation
            continuation.yield(state.status)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.statusSubscribers.removeValue(forKey: id) }
        }
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
