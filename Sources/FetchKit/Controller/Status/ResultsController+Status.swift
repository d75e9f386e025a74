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

    /// Sets the status under the lock `state` is held with; returns the readers to tell, when it changed.
    static func setStatus(_ status: ResultsStatus, in state: inout State) -> [AsyncStream<ResultsStatus>.Continuation] {
        guard state.status != status else { return [] }
        state.status = status
        return Array(state.statusSubscribers.values)
    }

    /// Sets the status and tells its readers.
    func setStatus(_ status: ResultsStatus) {
        let readers = state.withLock { Self.setStatus(status, in: &$0) }
        for reader in readers { reader.yield(status) }
    }

    /// Handles a failure to apply a change or to catch up: a transient one (``FetchKitError/isTransient``)
    /// makes the controller retry with backoff (``ResultsStatus/resyncing(_:)``); any other stops it
    /// (``ResultsStatus/failed(_:)``).
    func handleFailure(_ error: any Error) {
        let error = FetchKitError(wrapping: error)
        if error.isTransient {
            becomeStale(after: error)
        } else {
            fail(with: error)
        }
    }

    /// Stops the controller: it keeps its results, applies no further change, releases its `sync()` callers,
    /// tells its delegate and ends its update sequences by throwing `error`.
    func fail(with error: FetchKitError) {
        let entity = state.withLock { $0.request.entityName }
        if error.code == .closed {
            logger.info("results controller stopped: the store is closed", metadata: ["entity": "\(entity)"])
        } else {
            logger.error("results controller stopped", metadata: ["entity": "\(entity)", "error": "\(error)"])
        }
        var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?
        var subscribers: UpdateSubscribers<Object>?
        var waiters: [CheckedContinuation<Void, Never>] = []
        var readers: [AsyncStream<ResultsStatus>.Continuation] = []
        var followers: SharedResults<Object>?
        state.withLock { state in
            if state.isLeader { followers = state.group }
            readers = Self.setStatus(.failed(error), in: &state)
            state.isStale = false
            state.retry?.cancel()
            state.retry = nil
            state.retryDelay = .milliseconds(50)
            waiters = state.staleWaiters
            state.staleWaiters = []
            delegate = state.delegate
            subscribers = state.subscribers
            state.subscribers = nil
            state.awaitingInitial = []
        }
        router.metrics.permanentFailures.increment()
        for reader in readers { reader.yield(.failed(error)) }
        for waiter in waiters { waiter.resume() }
        delegate?.controller(self, didFailWith: error)
        subscribers?.finishAll(throwing: error)
        // The controllers that follow this one's results stop with it.
        for follower in followers?.followers ?? [] where follower !== self { follower.enqueue(.fail(error)) }
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
