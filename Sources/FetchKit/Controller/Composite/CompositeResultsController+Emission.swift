extension CompositeResultsController {
    /// Tells the delegate about the changes the parts reported: one batch per store transaction, whichever
    /// parts it changed, in global index paths. Runs one at a time (under `emission`).
    ///
    /// The machine moves the content the data source reads one batch at a time, just before that batch's
    /// callbacks: read from inside any callback, it shows exactly the state the current batch leads to, even
    /// when several transactions are pending (``CompositeMachine/nextBatch()``).
    func emitPending() async {
        var event = CompositeMachine.Event.roundSynced(through: await syncParts())
        while true {
            let effects = state.withLock { decide(event, in: &$0) }
            perform(effects)
            if effects.continuesRound {
                event = .batchDelivered
            } else if effects.syncsRound {
                event = .roundSynced(through: await syncParts())
            } else {
                return
            }
        }
    }

    /// Syncs every results part, and returns the last transaction all of them applied: every part reports a
    /// transaction's change before its `sync()` returns.
    private func syncParts() async -> UInt64 {
        let sources = state.withLock { $0.sources }
        var through = UInt64.max
        for source in sources {
            await source.sync()
            through = min(through, source.appliedTransactionID)
        }
        return through
    }

    /// Calls the delegate's methods for one batch, in contract order.
    func notify(
        _ delegate: any ResultsControllerDelegate<CompositeResultsController>, of update: CompositeBatch,
        from before: [PartContent], to after: [PartContent]
    ) {
        delegate.receive(.willChange, from: self)
        update.changeset.forEachChange(
            oldSection: { Self.section($0, in: before) }, newSection: { Self.section($0, in: after) },
            oldObject: { Self.row(at: $0, in: before) }, newObject: { Self.row(at: $0, in: after) },
            { delegate.receive($0, from: self) })
        delegate.receive(.didChange, from: self)
        delegate.receive(.didApply(update), from: self)
    }
}
