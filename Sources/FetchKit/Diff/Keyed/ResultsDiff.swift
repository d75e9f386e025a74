/// The changeset between two snapshots of a controller, through the keyed diff engine.
enum ResultsDiff {
    /// Matches rows by primary key (the `Int64` fast path when every key is an integer) and flags a matched
    /// row as updated when any fetched value differs.
    ///
    /// `isOrderedBefore` (old row `i` sorts before new row `j`) is for two sides sorted by one total order:
    /// the diff then merge-walks them and hashes only the rows whose place in the order changed.
    ///
    /// When rows of a section change their order, those whose key is in `movingFirst` are the ones that move
    /// whenever they can (the others are pinned, see ``KeyedDiff``).
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when a side's sections are not contiguous (a section
    ///   name repeats: the section key path does not order the results).
    /// - Complexity: O(n + m) for sides of n and m rows, plus the hashing and LIS of the rows that moved.
    static func changeset<Object>(
        from old: ResultsSnapshot<Object>, to new: ResultsSnapshot<Object>,
        isOrderedBefore: ((Int, Int) -> Bool)? = nil,
        movingFirst: Set<Value> = []
    ) throws -> Changeset {
        let previousRows = old.entries.rows
        let rows = new.entries.rows
        let isContentEqual = { (i: Int, j: Int) in previousRows[i].hasSameValues(as: rows[j]) }
        let oldKeyValues = Row.primaryKeys(of: previousRows, primaryKey: old.primaryKey)
        let newKeyValues = Row.primaryKeys(of: rows, primaryKey: new.primaryKey)
        let isPinned: ((Int) -> Bool)? = movingFirst.isEmpty ? nil : { !movingFirst.contains(oldKeyValues[$0]) }
        if let oldKeys = integers(oldKeyValues), let newKeys = integers(newKeyValues) {
            return KeyedDiff.changeset(
                from: try DiffSide(keys: oldKeys, sectionNames: old.sectionNames, sectionStarts: old.sectionStarts),
                to: try DiffSide(keys: newKeys, sectionNames: new.sectionNames, sectionStarts: new.sectionStarts),
                isOrderedBefore: isOrderedBefore, isPinned: isPinned, isContentEqual: isContentEqual)
        }
        return KeyedDiff.changeset(
            from: try DiffSide(keys: oldKeyValues, sectionNames: old.sectionNames, sectionStarts: old.sectionStarts),
            to: try DiffSide(keys: newKeyValues, sectionNames: new.sectionNames, sectionStarts: new.sectionStarts),
            isOrderedBefore: isOrderedBefore, isPinned: isPinned, isContentEqual: isContentEqual)
    }

    private static func integers(_ keys: [Value]) -> [Int64]? {
        var result: [Int64] = []
        result.reserveCapacity(keys.count)
        for key in keys {
            guard case .integer(let value) = key else { return nil }
            result.append(value)
        }
        return result
    }
}
