import Logging

/// The loop around the controller's machine (``ControllerMachine``): tell it an event under the lock, take
/// the resources its actions name while still holding it (the `sync()` callers to release, the status readers,
/// the delegate), then perform the actions outside the lock, in order.
extension ResultsController {
    typealias Machine = ControllerMachine<Object>

    /// What one event's actions need, gathered under the lock.
    struct Effects {
        var actions: [Machine.Action] = []
        var statusReaders: [AsyncStream<ResultsStatus>.Continuation] = []
        var releasedSyncs: [CheckedContinuation<Void, Never>] = []
        var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?
        var subscribers: UpdateSubscribers<Object>?
        var followers: SharedResults<Object>?
        var entity = ""

        /// Whether the machine resumes the `sync()` call just requested.
        var resumesSync: Bool { actions.contains { if case .resumeSync = $0 { true } else { false } } }
        /// The delegate's move the machine asks to write, if any.
        var moveToWrite: (id: Int, key: Value, destination: MoveDestination)? {
            for case .writeMove(let id, let key, let destination) in actions { return (id, key, destination) }
            return nil
        }
        /// Whether the machine asks for a refetch.
        var refetches: Bool { actions.contains { if case .refetch = $0 { true } else { false } } }
    }

    /// Tells the machine `event` and performs what it decides.
    func send(_ event: Machine.Event) {
        perform(state.withLock { decide(event, in: &$0) })
    }

    /// Tells the machine the event `make` builds from the state, under the same lock, and performs what it
    /// decides.
    func send(_ make: (State) -> Machine.Event) {
        perform(state.withLock { decide(make($0), in: &$0) })
    }

    /// Tells the machine `event`, under the lock `state` is held with, and gathers what its actions need.
    func decide(_ event: Machine.Event, in state: inout State) -> Effects {
        var effects = Effects(actions: state.machine.handle(event, at: .now))
        for action in effects.actions {
            switch action {
            case .reportStatus:
                effects.statusReaders = Array(state.statusSubscribers.values)
            case .releaseSyncs:
                effects.releasedSyncs += state.staleWaiters
                state.staleWaiters = []
            case .notifyDelegate:
                effects.delegate = state.delegate
            case .stop:
                effects.entity = state.request.entityName
                effects.delegate = state.delegate
                effects.subscribers = state.subscribers
                state.subscribers = nil
                state.awaitingInitial = []
                effects.followers = state.sharing.ledGroup
            case .scheduleRetry(let delay):
                state.retry?.cancel()
                state.retry = census.start { [weak self] in
                    // Cancelled when a later schedule replaces it: the machine ignores a retry before its time.
                    try? await Task.sleep(for: delay)
                    self?.enqueue(.retry)
                }
            case .cancelRetry:
                state.retry?.cancel()
                state.retry = nil
            case .logLag, .logRetry, .logCaughtUp:
                // Only what is logged names the entity (a string copy the thousands of deliveries skip).
                effects.entity = state.request.entityName
            case .publish, .writeMove, .replanMove, .refetch, .resumeSync:
                break
            }
        }
        return effects
    }

    /// Performs the actions of one event, outside the lock. Those that belong to the caller's flow — publishing
    /// a batch, writing or replanning a move, refetching, resuming a `sync()` — are left to it.
    func perform(_ effects: Effects) {
        for action in effects.actions {
            switch action {
            case .reportStatus(let status):
                for reader in effects.statusReaders { reader.yield(status) }
            case .releaseSyncs:
                for waiter in effects.releasedSyncs { waiter.resume() }
            case .notifyDelegate(let batch):
                if let delegate = effects.delegate { notify(delegate, of: batch) }
            case .stop(let error):
                stopped(with: error, effects)
            case .logLag(let behind, let lag):
                if behind {
                    logger.info(
                        "results are behind the store; catching up",
                        metadata: ["entity": "\(effects.entity)", "lag": "\(lag)"])
                } else {
                    logger.info("results caught up with the store", metadata: ["entity": "\(effects.entity)"])
                }
            case .logRetry(let error):
                logger.warning(
                    "results refresh failed; retrying", metadata: ["entity": "\(effects.entity)", "error": "\(error)"])
                router.metrics.transientFailures.increment()
            case .logCaughtUp:
                router.metrics.resyncs.increment()
                logger.info("results caught up after a failure", metadata: ["entity": "\(effects.entity)"])
            case .publish, .writeMove, .replanMove, .refetch, .resumeSync, .scheduleRetry, .cancelRetry:
                break
            }
        }
    }

    /// A permanent failure: logged, counted, told to the delegate, the update sequences and the followers.
    private func stopped(with error: FetchKitError, _ effects: Effects) {
        if error.code == .closed {
            logger.debug("results controller stopped: the store is closed", metadata: ["entity": "\(effects.entity)"])
        } else {
            logger.error("results controller stopped", metadata: ["entity": "\(effects.entity)", "error": "\(error)"])
        }
        router.metrics.permanentFailures.increment()
        effects.delegate?.controller(self, didFailWith: error)
        effects.subscribers?.finishAll(throwing: error)
        // The controllers that follow this one's results stop with it.
        for follower in effects.followers?.followers ?? [] where follower !== self { follower.enqueue(.fail(error)) }
    }
}
