/// One committed change applied to the editor: the named rows out, their re-read versions in, the window
/// cut to its limit, with every affected row's position before and after recorded for ``LocalChangeset``.
extension ResultsSnapshotEditor {
    /// A re-read row, ready to insert.
    struct FreshRow {
        let row: Row
        let object: Object
        let sortKey: SortKey
    }

    /// Applies a change to the editor, which must still hold `old`.
    ///
    /// Rows named by `keys` are removed; `fresh` (the named rows that still match, strictly increasing by
    /// sort key) are inserted. With a `limit`, rows pushed past it are removed; a window that was full only
    /// knows the rows up to its last one, so a fresh row that now sorts after that row is left out (unread
    /// rows may come first).
    ///
    /// - Returns: the positions (in `old`, in the result) of every affected row, or `nil` when a full window
    ///   shrank below its limit and must be refilled from the database.
    /// - Throws: ``IncrementalInconsistency`` when the snapshot and the order disagree.
    /// - Complexity: O(k log n + k s) for k affected rows.
    mutating func apply(
        removing keys: some Collection<Value>, inserting fresh: [FreshRow], limit: Int?, old: ResultsSnapshot<Object>
    ) throws -> [LocalChangeset.Item]? {
        let wasFull = limit.map { old.count >= $0 } ?? false
        let boundary = wasFull ? old.entries.last.map { sortKey(of: $0.row) } : nil
        var oldPositions: [Value: Int] = [:]
        for key in keys {
            guard let position = try old.verifiedFlatIndex(ofKey: key) else { continue }
            oldPositions[key] = position
        }
        for position in oldPositions.values.sorted(by: >) { remove(at: position) }
        var newPositions: [Value: Int] = [:]
        for row in fresh {
            if let boundary, boundary < row.sortKey { continue }
            // Fresh rows go in increasing order, so a later one never shifts an earlier one's position.
            let position = try insert(row.row, object: row.object, sortKey: row.sortKey)
            newPositions[row.row[old.primaryKey] ?? .null] = position
        }
        var pushedOut: [Value] = []
        if let limit {
            while count > limit {
                let key = removeLast()
                if newPositions.removeValue(forKey: key) == nil { pushedOut.append(key) }
            }
            if wasFull && count < limit { return nil }
        }
        var items: [LocalChangeset.Item] = []
        for key in Set(keys) {
            let item = LocalChangeset.Item(old: oldPositions[key], new: newPositions[key])
            if item.old != nil || item.new != nil { items.append(item) }
        }
        for key in pushedOut {
            // A row the change did not name, pushed out of the window: it was in the old results.
            guard let position = try old.verifiedFlatIndex(ofKey: key), oldPositions[key] == nil else { continue }
            items.append(LocalChangeset.Item(old: position, new: nil))
        }
        return items
    }
}
