import Logging

/// The loop around the controller's machine (``ControllerMachine``): tell it an event under the lock, perform
/// under the same lock the few actions whose order against a publication matters (a new reader's first element,
/// the scheduling of a retry), then perform the rest outside the lock, in order. The machine's actions carry
/// the readers, waiters, delegate and tasks they act on: the loop keeps no state of its own.
extension ResultsController {
    typealias Machine = ControllerMachine<Object>

    /// One event's actions, with what logging them needs.
    struct Effects {
        var actions: [Machine.Action] = []
        var entity = ""

        /// The `sync()` call the machine resumes at once, if it does.
        var resumedSync: SyncWaiter? {
            for case .resumeSync(let waiter) in actions { return waiter }
            return nil
        }
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

    /// Tells the machine `event`, under the lock `state` is held with, and performs what must happen under it.
    func decide(_ event: Machine.Event, in state: inout State) -> Effects {
        var effects = Effects(actions: state.machine.handle(event, at: .now))
        for action in effects.actions {
            switch action {
            case .greetStatusReader(let reader, let status):
                reader.yield(status)
            case .startReader(let buffer, let initial):
                buffer.push(initial)
            case .endReader(let buffer, let error):
                buffer.finish(throwing: error)
            case .scheduleRetry(let delay, _):
                let task = census.start { [weak self] in
                    // Cancelled when a later schedule replaces it: the machine ignores a retry before its time.
                    try? await Task.sleep(for: delay)
                    self?.enqueue(.retry)
                }
                _ = state.machine.handle(.retryScheduled(task), at: .now)
            case .stop, .logLag, .logRetry, .logCaughtUp:
                // Only what is logged names the entity (a string copy the thousands of deliveries skip).
                effects.entity = state.request.entityName
            case .reportStatus, .publish, .notifyDelegate, .writeMove, .replanMove, .refetch, .cancelRetry,
                .resumeSync, .releaseSyncs:
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
            case .reportStatus(let status, let readers):
                for reader in readers { reader.yield(status) }
            case .releaseSyncs(let waiters):
                for waiter in waiters { waiter.resume() }
            case .notifyDelegate(let batch, let delegate):
                if let delegate { notify(delegate, of: batch) }
            case .scheduleRetry(_, let replaced):
                replaced?.cancel()
            case .cancelRetry(let retry):
                retry?.cancel()
            case .stop(let error, let stopping):
                stopped(with: error, stopping, entity: effects.entity)
            // A controller's own events are debug: a store's summary (a lost feed, how many controllers it
            // affects) is what an operator reads at info, once, not once per controller.
            case .logLag(let behind, let lag):
                if behind {
                    logger.debug(
                        "results are behind the store; catching up",
                        metadata: metadata(effects.entity, ["lag": "\(lag)"]))
                } else {
                    logger.debug("results caught up with the store", metadata: metadata(effects.entity))
                }
            case .logRetry(let error):
                logger.debug(
                    "results refresh failed; retrying", metadata: metadata(effects.entity, ["error": "\(error)"]))
                router.metrics.transientFailures.increment()
            case .logCaughtUp:
                router.metrics.failureResyncs.increment()
                logger.debug("results caught up after a failure", metadata: metadata(effects.entity))
            case .publish, .writeMove, .replanMove, .refetch, .resumeSync, .greetStatusReader, .startReader,
                .endReader:
                break
            }
        }
    }

    /// A log line's metadata: the controller (``routeID``, unique in its store), its entity, then `more`.
    func metadata(_ entity: String, _ more: Logger.Metadata = [:]) -> Logger.Metadata {
        more.merging(["fetchkit.controller": "\(routeID)", "fetchkit.entity": "\(entity)"]) { $1 }
    }

    /// A permanent failure: logged, counted, told to the delegate, the update sequences and the followers.
    private func stopped(with error: FetchKitError, _ stopping: Machine.Stopping, entity: String) {
        // Debug: the error reaches the delegate and the update sequences, where the app decides what it means.
        if error.code == .closed {
            logger.debug("results controller stopped: the store is closed", metadata: metadata(entity))
        } else {
            logger.debug("results controller stopped", metadata: metadata(entity, ["error": "\(error)"]))
        }
        router.metrics.permanentFailures.increment()
        stopping.delegate?.controller(self, didFailWith: error)
        stopping.readers?.finishAll(throwing: error)
        // The controllers that follow this one's results stop with it.
        for follower in stopping.followers?.followers ?? [] where follower !== self { follower.enqueue(.fail(error)) }
    }
}
