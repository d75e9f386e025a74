/// The emission rounds as state: one batch per store transaction, whichever parts it changed, in global index
/// paths, and the content the delegate was told moving one batch at a time.
///
/// Every part reports a transaction's change before its `sync()` returns: once all have synced, a transaction
/// through the one every part has applied is complete in ``pending``. A later one may still be missing a
/// part's change (it committed after the syncs began): it waits for the next round rather than arriving as two
/// batches. Parts on different stores number their transactions apart: when a round completes nothing, the
/// next one emits the rest in order.
extension CompositeMachine {
    /// Starts a round that emits the transactions through `through` (all of them after a stalled round).
    mutating func roundSynced(through: UInt64) -> [Action] {
        roundThrough = stalled ? .max : through
        roundEmitted = false
        return nextBatch()
    }

    /// The round's next batch, moving ``applied`` to what it leads to — so that a data source read from inside
    /// its callbacks shows exactly that state, even when several transactions are pending. At the round's end:
    /// another round while changes are pending, else nothing.
    mutating func nextBatch() -> [Action] {
        guard let through = roundThrough else { return [] }
        if let group = Self.takeNextGroup(from: &pending, through: through) {
            roundEmitted = true
            let before = applied
            let update = Self.merge(group, into: &applied)
            guard hasDelegate, !update.changeset.isEmpty else { return [.continueRound] }
            return [.notifyDelegate(update, before: before, after: applied), .continueRound]
        }
        roundThrough = nil
        guard !pending.isEmpty else {
            stalled = false
            return []
        }
        stalled = !roundEmitted
        return [.syncRound]
    }

    /// Removes and returns the pending changes of the next transaction: the earliest one when every change
    /// names its transaction, otherwise the first change's (a fetch or a request change comes in order);
    /// `nil` when there is none, or the next one is after `through`. Only a part's first pending change is
    /// taken: a part's change is translated from its previous one, so a part that reported a fetch (or a
    /// later transaction) in between gives the transaction its change in a later batch.
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
        var group: [Pending] = []
        var rest: [Pending] = []
        var seen: Set<Int> = []
        for change in pending {
            if change.transactionID == id && !seen.contains(change.part) {
                group.append(change)
            } else {
                rest.append(change)
            }
            seen.insert(change.part)
        }
        pending = rest
        return group
    }

    /// One batch from the changes of several parts: each part's operations shifted by the sections of the
    /// parts before it — in the old index space for deletes and move sources, the new one for inserts and
    /// move destinations.
    static func merge(_ group: [Pending], into applied: inout [PartContent]) -> CompositeBatch {
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
        return CompositeBatch(
            changeset: result, sectionNamesBefore: namesBefore, sectionNamesAfter: namesAfter,
            transactionID: group.first?.transactionID)
    }
}
