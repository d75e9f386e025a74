/// Folding several committed changes into one that covers them all: what the router does with a backlog
/// (see ``ChangeInbox``).
extension StoreChange {
    /// `self` followed by `later`, as one change: the later transaction's ID, the earlier publication instant
    /// (the oldest change it covers, for the delivery lag), every key either names, a resync when either is.
    ///
    /// The result names keys conservatively, as every change does: a key in any set of either change is in
    /// the same set of the result (a deletion stays a deletion even when a later transaction re-inserted the
    /// key), so a consumer that re-reads every named key reaches the same rows. A table naming more than
    /// `keyLimit` keys becomes a whole-table change.
    ///
    /// - Complexity: O(k) for the k keys `later` names.
    func folding(_ later: StoreChange, keyLimit: Int) -> StoreChange {
        var folded = self
        folded.absorb(later, keyLimit: keyLimit)
        return folded
    }

    /// Folds `later` into this change (see ``folding(_:keyLimit:)``), in place.
    ///
    /// - Complexity: O(k) for the k keys `later` names.
    mutating func absorb(_ later: StoreChange, keyLimit: Int) {
        transactionID = max(transactionID, later.transactionID)
        publishedAt = min(publishedAt, later.publishedAt)
        logPosition = later.logPosition ?? logPosition
        delivery = later.delivery ?? delivery
        traces.absorb(later.traces)
        isResync = isResync || later.isResync
        // A resync names no table: every live result refetches anyway.
        guard !isResync else {
            tables = [:]
            return
        }
        for (table, change) in later.tables {
            guard var merged = tables.removeValue(forKey: table) else {
                tables[table] = change.bounded(keyLimit: keyLimit)
                continue
            }
            merged.absorb(change, keyLimit: keyLimit)
            tables[table] = merged
        }
    }
}

extension TableChange {
    /// Adds `later`'s keys to this change's sets; past `keyLimit` keys in all, the whole table. A key `later`
    /// names takes `later`'s image, or none when it has none (the earlier image is stale). References stay known
    /// only where both changes know them.
    ///
    /// - Complexity: O(k) for the k keys `later` names.
    mutating func absorb(_ later: TableChange, keyLimit: Int) {
        guard !isWholeTable else { return }
        guard !later.isWholeTable else {
            self = TableChange(isWholeTable: true)
            return
        }
        if !images.isEmpty || !later.images.isEmpty {
            for key in later.inserted { images[key] = later.images[key] }
            for key in later.updated { images[key] = later.images[key] }
            for key in later.deleted { images[key] = later.images[key] }
        }
        inserted.formUnion(later.inserted)
        updated.formUnion(later.updated)
        deleted.formUnion(later.deleted)
        // A reference either change does not know is unknown for both.
        if !references.isEmpty {
            var known: [String: Set<Value>] = [:]
            for (attribute, values) in references {
                guard let more = later.references[attribute] else { continue }
                known[attribute] = values.union(more)
            }
            references = known
        }
        self = bounded(keyLimit: keyLimit)
    }

    /// This change, or the whole table when it names more than `keyLimit` keys.
    func bounded(keyLimit: Int) -> TableChange {
        inserted.count + updated.count + deleted.count > keyLimit ? TableChange(isWholeTable: true) : self
    }
}
