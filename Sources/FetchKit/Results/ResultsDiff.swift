
/// The changeset between two snapshots of a controller, through the keyed diff engine.
enum ResultsDiff {
    /// Matches rows by primary key (the `Int64` fast path when every key is an integer) and flags a matched
    /// row as updated when any fetched value differs.
    ///
    /// `isOrderedBefore` (old row `i` sorts before new row `j`) is for two sides sorted by one total order:
    /// the diff then merge-walks them and hashes only the rows whose place in the order changed.
    ///
    /// - Throws: ``FetchKitError/invalidValue(_:)`` when a side's sections are not contiguous (a section
    ///   name repeats: the section key path does not order the results).
    static func changeset<Object>(
        from old: ResultsSnapshot<Object>, previousRows: [Row], to new: ResultsSnapshot<Object>, rows: [Row],
        isOrderedBefore: ((Int, Int) -> Bool)? = nil
    ) throws -> Changeset {
        let isContentEqual = { (i: Int, j: Int) in previousRows[i].values == rows[j].values }
        if let oldKeys = integers(old.keys), let newKeys = integers(new.keys) {
            return KeyedDiff.changeset(
                from: try DiffSide(keys: oldKeys, sectionNames: old.sections.map(\.name), sectionStarts: old.sectionStarts),
                to: try DiffSide(keys: newKeys, sectionNames: new.sections.map(\.name), sectionStarts: new.sectionStarts),
                isOrderedBefore: isOrderedBefore, isContentEqual: isContentEqual)
        }
        return KeyedDiff.changeset(
            from: try DiffSide(keys: old.keys, sectionNames: old.sections.map(\.name), sectionStarts: old.sectionStarts),
            to: try DiffSide(keys: new.keys, sectionNames: new.sections.map(\.name), sectionStarts: new.sectionStarts),
            isOrderedBefore: isOrderedBefore, isContentEqual: isContentEqual)
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
