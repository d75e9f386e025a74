/// The loop around the composite's machine (``CompositeMachine``): tell it an event under the lock, take the
/// delegate while still holding it when an action calls it, then perform the actions outside the lock, in order.
extension CompositeResultsController {
    /// What one event's actions need, gathered under the lock.
    struct Effects {
        var actions: [CompositeMachine.Action] = []
        var delegate: (any ResultsControllerDelegate<CompositeResultsController>)?

        /// The index of the part the machine accepted, if it did.
        var addedPart: Int? {
            for case .addPart(let index) in actions { return index }
            return nil
        }
        /// Whether the round goes on with the next batch.
        var continuesRound: Bool { actions.contains { if case .continueRound = $0 { true } else { false } } }
        /// Whether the parts are synced again for another round.
        var syncsRound: Bool { actions.contains { if case .syncRound = $0 { true } else { false } } }
    }

    /// Tells the machine `event` and performs what it decides.
    func send(_ event: CompositeMachine.Event) {
        perform(state.withLock { decide(event, in: &$0) })
    }

    /// Tells the machine the event `make` builds from the state, under the same lock, and performs what it
    /// decides.
    func send(_ make: (State) -> CompositeMachine.Event) {
        perform(state.withLock { decide(make($0), in: &$0) })
    }

    /// Tells the machine `event`, under the lock `state` is held with, and gathers what its actions need.
    func decide(_ event: CompositeMachine.Event, in state: inout State) -> Effects {
        var effects = Effects(actions: state.machine.handle(event))
        if effects.actions.contains(where: { if case .notifyDelegate = $0 { true } else { false } }) {
            effects.delegate = state.delegate
        }
        return effects
    }

    /// Performs the actions of one event, outside the lock. Those that belong to the caller's flow — keeping or
    /// refusing a part, going on with the emission round — are left to it.
    func perform(_ effects: Effects) {
        for action in effects.actions {
            switch action {
            case .signalEmission:
                signals.yield()
            case .notifyDelegate(let update, let before, let after):
                if let delegate = effects.delegate { notify(delegate, of: update, from: before, to: after) }
            case .logError(let part, let error):
                // Debug: the failure reaches the delegate (``reportFailure``), where the app decides what it means.
                logger.debug("composite results stopped", metadata: ["part": "\(part)", "error": "\(error)"])
            case .reportFailure(let error):
                reportFailure(error)
            case .addPart, .refusePart, .continueRound, .syncRound:
                break
            }
        }
    }

    /// Tells the delegate of `error` once the batches pending before it are out.
    private func reportFailure(_ error: FetchKitError) {
        census.start { [weak self] in
            guard let self else { return }
            await self.emission.run {
                await self.emitPending()
                self.delegate?.controller(self, didFailWith: error)
            }
        }
    }
}
