/// One committed change applied to the editor: the named rows out, their re-read versions in, the window
/// cut to its limit (and refilled after its last row), with every affected row's position before and after
/// recorded for ``LocalChangeset``.
extension ResultsSnapshotEditor {
    /// A re-read row, ready to insert.
    struct FreshRow {
        let row: Row
        let object: Object
        let sortKey: SortKey
    }

    /// A change being applied: what moved where so far, and how many rows a shrunk window is missing.
    struct PendingChange {
        /// The keys the change named.
        let keys: Set<Value>
        /// Positions and handles in the old snapshot of the named rows that were there.
        var oldPositions: [Value: (position: Int, handle: UInt32)] = [:]
        /// Positions and handles in the new snapshot of the rows inserted (named rows that still match, refill
        /// rows).
        var newPositions: [Value: (position: Int, handle: UInt32)] = [:]
        /// Rows the change did not name that were pushed past the limit.
        var pushedOut: [Value] = []
        /// The last row of the old window, when it was full: rows after it were never read.
        let boundary: Row?
        /// How many rows the window is missing: it was full and shrank below its limit.
        var missing = 0
    }

    /// Applies a change to the editor, which must still hold `old`.
    ///
    /// Rows named by `keys` are removed; `fresh` (the named rows that still match, strictly increasing by
    /// sort key) are inserted. With a `limit`, rows pushed past it are removed. A window that was full only
    /// knows the rows up to its last one (the boundary), so a fresh row that now sorts after it is left
    /// out; if the window ends up short, ``PendingChange/missing`` says how many rows to read after the
    /// boundary and hand to ``refill(_:with:)``.
    ///
    /// - Throws: ``IncrementalInconsistency`` when the snapshot and the order disagree.
    /// - Complexity: O(k log n + k s) for k affected rows.
    mutating func apply(
        removing keys: some Collection<Value>, inserting fresh: [FreshRow], limit: Int?, old: ResultsSnapshot<Object>
    ) throws -> PendingChange {
        let wasFull = limit.map { old.count >= $0 } ?? false
        var change = PendingChange(keys: Set(keys), boundary: wasFull ? old.entries.last?.row : nil)
        let boundary = change.boundary.map { sortKey(of: $0) }
        for key in change.keys {
            guard let location = try old.verifiedLocation(ofKey: key) else { continue }
            change.oldPositions[key] = location
        }
        for position in change.oldPositions.values.map(\.position).sorted(by: >) { remove(at: position) }
        for row in fresh {
            if let boundary, boundary < row.sortKey { continue }
            // Fresh rows go in increasing order, so a later one never shifts an earlier one's position.
            change.newPositions[row.row[old.primaryKey] ?? .null] = try insert(
                row.row, object: row.object, sortKey: row.sortKey)
        }
        if let limit {
            while count > limit {
                let key = removeLast()
                if change.newPositions.removeValue(forKey: key) == nil { change.pushedOut.append(key) }
            }
            if wasFull { change.missing = limit - count }
        }
        return change
    }

    /// Appends the rows read after the boundary to a window that was missing them; they must sort after
    /// its last row, in increasing order.
    ///
    /// - Throws: ``IncrementalInconsistency`` when a row would not go at the end.
    mutating func refill(_ change: inout PendingChange, with rows: [FreshRow]) throws {
        for row in rows.prefix(change.missing) {
            let location = try insert(row.row, object: row.object, sortKey: row.sortKey)
            guard location.position == count - 1 else {
                throw IncrementalInconsistency(description: "a refill row does not sort after the window's last row")
            }
            change.newPositions[row.row[primaryKeyName] ?? .null] = location
        }
        change.missing = 0
    }

    /// The positions before and after of every row the change affected, for ``LocalChangeset``.
    ///
    /// - Throws: ``IncrementalInconsistency`` when a pushed-out row is not where its sort key places it.
    func items(of change: PendingChange, old: ResultsSnapshot<Object>) throws -> [LocalChangeset.Item] {
        var items: [LocalChangeset.Item] = []
        var seen = change.keys
        for key in change.keys {
            let old = change.oldPositions[key]
            let new = change.newPositions[key]
            let item = LocalChangeset.Item(
                old: old?.position, new: new?.position, oldHandle: old?.handle, newHandle: new?.handle)
            if item.old != nil || item.new != nil { items.append(item) }
        }
        for (key, location) in change.newPositions where seen.insert(key).inserted {
            // A refill row: it was not in the old window (all of which sorts before the boundary).
            items.append(LocalChangeset.Item(old: nil, new: location.position))
        }
        for key in change.pushedOut where seen.insert(key).inserted {
            // A row the change did not name, pushed out of the window: it was in the old results.
            guard let position = try old.verifiedFlatIndex(ofKey: key) else { continue }
            items.append(LocalChangeset.Item(old: position, new: nil))
        }
        return items
    }
}
