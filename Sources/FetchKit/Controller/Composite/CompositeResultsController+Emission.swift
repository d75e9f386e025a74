extension CompositeResultsController {
    /// Tells the delegate about the changes the parts reported: one batch per store transaction, whichever
    /// parts it changed, in global index paths. Runs one at a time (under `emission`).
    ///
    /// The content the data source reads moves one batch at a time, just before that batch's callbacks: read
    /// from inside any callback, it shows exactly the state the current batch leads to, even when several
    /// transactions are pending.
    func emitPending() async {
        let parts = state.withLock { $0.parts }
        var stalled = false
        while true {
            // Every part reports a transaction's change before its sync() returns: once all have synced, a
            // transaction through the one every part has applied is complete in `pending`. A later one may
            // still be missing a part's change (it committed after the syncs began): it waits for the next
            // round rather than arriving as two batches.
            var through = UInt64.max
            for case .results(let source) in parts {
                await source.sync()
                through = min(through, source.appliedTransactionID)
            }
            var emitted = false
            while let (update, before, after, delegate) = state.withLock({ state -> Emission? in
                guard let group = Self.takeNextGroup(from: &state.pending, through: stalled ? .max : through) else {
                    return nil
                }
                let before = state.applied
                let update = Self.merge(group, into: &state.applied)
                return (update, before, state.applied, state.delegate)
            }) {
                emitted = true
                if let delegate, !update.changeset.isEmpty { notify(delegate, of: update, from: before, to: after) }
            }
            guard state.withLock({ !$0.pending.isEmpty }) else { return }
            // Parts on different stores number their transactions apart: when a round completes nothing,
            // the rest goes out in order.
            stalled = !emitted
        }
    }

    /// Removes and returns the pending changes of the next transaction: the earliest one when every change
    /// names its transaction, otherwise the first change's (a fetch or a request change comes in order);
    /// `nil` when there is none, or the next one is after `through`.
    static func takeNextGroup(from pending: inout [Pending], through: UInt64) -> [Pending]? {
        guard let first = pending.first else { return nil }
        let id: UInt64?
        if pending.allSatisfy({ $0.transactionID != nil }) {
            id = pending.lazy.compactMap(\.transactionID).min()
        } else {
            id = first.transactionID
        }
        guard let id else {
            pending.removeFirst()
            return [first]
        }
        guard id <= through else { return nil }
        let group = pending.filter { $0.transactionID == id }
        pending.removeAll { $0.transactionID == id }
        return group
    }

    /// One batch from the changes of several parts: each part's operations shifted by the sections of the
    /// parts before it — in the old index space for deletes and move sources, the new one for inserts and
    /// move destinations.
    static func merge(_ group: [Pending], into applied: inout [PartContent]) -> CompositeUpdate {
        let byPart = Dictionary(group.map { ($0.part, $0) }, uniquingKeysWith: { $1 })
        var result = Changeset(sectionCountsBefore: [], sectionCountsAfter: [])
        var namesBefore: [String] = []
        var namesAfter: [String] = []
        var oldBase = 0
        var newBase = 0
        for part in applied.indices {
            let before = applied[part]
            let after = byPart[part]?.content ?? before
            if let changeset = byPart[part]?.changeset {
                let old = { (path: RowPath) in RowPath(section: path.section + oldBase, row: path.row) }
                let new = { (path: RowPath) in RowPath(section: path.section + newBase, row: path.row) }
                result.sectionDeletes += changeset.sectionDeletes.map { $0 + oldBase }
                result.sectionInserts += changeset.sectionInserts.map { $0 + newBase }
                result.sectionMoves += changeset.sectionMoves.map {
                    .init(from: $0.from + oldBase, to: $0.to + newBase)
                }
                result.rowDeletes += changeset.rowDeletes.map(old)
                result.rowInserts += changeset.rowInserts.map(new)
                result.rowMoves += changeset.rowMoves.map {
                    .init(from: old($0.from), to: new($0.to), isUpdated: $0.isUpdated)
                }
                result.rowUpdates += changeset.rowUpdates.map { .init(from: old($0.from), to: new($0.to)) }
            }
            result.sectionCountsBefore += before.counts
            result.sectionCountsAfter += after.counts
            namesBefore += before.names
            namesAfter += after.names
            oldBase += before.names.count
            newBase += after.names.count
            applied[part] = after
        }
        return CompositeUpdate(
            changeset: result, sectionNamesBefore: namesBefore, sectionNamesAfter: namesAfter,
            transactionID: group.first?.transactionID)
    }

    /// A batch to emit: the update, what the composite showed before and after it, and the delegate.
    private typealias Emission = (
        update: CompositeUpdate, before: [PartContent], after: [PartContent],
        delegate: (any ResultsControllerDelegate<CompositeResultsController>)?
    )

    /// Calls the delegate's methods for one batch, in contract order.
    private func notify(
        _ delegate: any ResultsControllerDelegate<CompositeResultsController>, of update: CompositeUpdate,
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
