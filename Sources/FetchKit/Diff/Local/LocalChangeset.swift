/// The changeset between two snapshots that differ only in a few known rows, found without walking the
/// others: O(k log n + s) for k affected rows, n rows and s sections.
///
/// Every row not among the affected ones is in both snapshots, in the same section and the same relative
/// order, with the same content. So only affected rows are reported, and an affected row that stays in its
/// section is a move only when it crossed an unaffected row of that section or left the longest increasing
/// run of the affected rows there: moving one row of 10,000 is one move. Sections are matched by name;
/// the batch contract's rules for rows of inserted and deleted sections apply as in ``KeyedDiff``.
enum LocalChangeset {
    /// One affected row: its positions among all rows before and after (`nil` where absent), and where
    /// known its handles in the snapshots' storage (which compare its contents without a tree lookup).
    struct Item {
        let old: Int?
        let new: Int?
        var oldHandle: UInt32?
        var newHandle: UInt32?

        init(old: Int?, new: Int?, oldHandle: UInt32? = nil, newHandle: UInt32? = nil) {
            self.old = old
            self.new = new
            self.oldHandle = oldHandle
            self.newHandle = newHandle
        }
    }

    /// The changeset from `old` to `new`, given the positions of every row that may differ between them (each
    /// row once).
    ///
    /// - Throws: ``IncrementalInconsistency`` when sections present in both changed their
    ///   relative order (the incremental path then refetches).
    static func make<Object>(
        from old: ResultsSnapshot<Object>, to new: ResultsSnapshot<Object>, items: [Item]
    ) throws -> Changeset {
        var changeset = Changeset(sectionCountsBefore: old.sectionCounts, sectionCountsAfter: new.sectionCounts)
        let sections = SectionMatching(oldNames: old.sectionNames, newNames: new.sectionNames)
        try sections.checkRelativeOrder()
        changeset.sectionDeletes = sections.deletes
        changeset.sectionInserts = sections.inserts

        let oldAffected = items.compactMap(\.old).sorted()
        let newAffected = items.compactMap(\.new).sorted()
        /// Affected rows that stay in their section without crossing an unaffected row, by section.
        var candidates: [Int: [Item]] = [:]
        for item in items {
            switch (item.old, item.new) {
            case (let from?, nil):
                let path = old.rowPath(atFlatIndex: from)
                if sections.oldTarget[path.section] >= 0 { changeset.rowDeletes.append(path) }
            case (nil, let to?):
                let path = new.rowPath(atFlatIndex: to)
                if sections.newSource[path.section] >= 0 { changeset.rowInserts.append(path) }
            case (let from?, let to?):
                let fromPath = old.rowPath(atFlatIndex: from)
                let toPath = new.rowPath(atFlatIndex: to)
                let target = sections.oldTarget[fromPath.section]
                let source = sections.newSource[toPath.section]
                switch (target >= 0, source >= 0) {
                case (false, false):
                    break
                case (false, true):
                    changeset.rowInserts.append(toPath)
                case (true, false):
                    changeset.rowDeletes.append(fromPath)
                case (true, true) where target != toPath.section:
                    changeset.rowMoves.append(.init(from: fromPath, to: toPath, isUpdated: !isSame(old, new, item)))
                default:
                    // Same section: the unaffected rows before it, before and after, tell whether it crossed one.
                    let unaffectedBefore =
                        from - old.sectionStarts[fromPath.section]
                        - count(oldAffected, in: old.sectionStarts[fromPath.section]..<from)
                    let unaffectedAfter =
                        to - new.sectionStarts[toPath.section]
                        - count(newAffected, in: new.sectionStarts[toPath.section]..<to)
                    if unaffectedBefore != unaffectedAfter {
                        let isUpdated = !isSame(old, new, item)
                        changeset.rowMoves.append(.init(from: fromPath, to: toPath, isUpdated: isUpdated))
                    } else {
                        candidates[toPath.section, default: []].append(item)
                    }
                }
            case (nil, nil):
                break
            }
        }
        for (_, rows) in candidates {
            // Every candidate has both positions.
            let sorted = rows.sorted { $0.old! < $1.old! }
            let staying = LongestIncreasingSubsequence.members(of: sorted.map { $0.new! })
            for (index, row) in sorted.enumerated() {
                let fromPath = old.rowPath(atFlatIndex: row.old!)
                let toPath = new.rowPath(atFlatIndex: row.new!)
                let isUpdated = !isSame(old, new, row)
                if !staying[index] {
                    changeset.rowMoves.append(.init(from: fromPath, to: toPath, isUpdated: isUpdated))
                } else if isUpdated {
                    changeset.rowUpdates.append(.init(from: fromPath, to: toPath))
                }
            }
        }
        changeset.rowDeletes.sort()
        changeset.rowInserts.sort()
        changeset.rowMoves.sort { $0.from < $1.from }
        changeset.rowUpdates.sort { $0.from < $1.from }
        return changeset
    }

    /// `true` when `item`'s row has equal values in `old` and in `new` (it must be in both).
    private static func isSame<Object>(
        _ old: ResultsSnapshot<Object>, _ new: ResultsSnapshot<Object>, _ item: Item
    ) -> Bool {
        let before = item.oldHandle.map { old.entries.row(handle: $0) } ?? old.entries[item.old!].row
        let after = item.newHandle.map { new.entries.row(handle: $0) } ?? new.entries[item.new!].row
        return before.values == after.values
    }

    /// The number of elements of the sorted array `values` inside `range`.
    private static func count(_ values: [Int], in range: Range<Int>) -> Int {
        values.partitionPoint { $0 >= range.upperBound } - values.partitionPoint { $0 >= range.lowerBound }
    }
}
