extension KeyedDiff {
    /// What the old pass decided for one row of a surviving section.
    private enum RowFate: UInt8 {
        /// Reported deleted: unmatched, or matched into an inserted section.
        case deleted
        /// Matched into another surviving section: a move.
        case leavesSection
        /// Matched into the same section, outside the longest increasing subsequence: a move.
        case movesInSection
        /// Matched into the same section, in the longest increasing subsequence: stays (maybe updated).
        case staysInPlace
    }

    /// Turns matched sections and rows into a changeset that honours the batch contract.
    ///
    /// Rows of deleted sections and of inserted sections are never reported; a row leaving a deleted section
    /// for a surviving one is an insert, a row leaving a surviving section for an inserted one a delete. Within
    /// each surviving section the rows that stay there keep a longest increasing subsequence in place; the
    /// others, and every row changing section, are moves (flagged updated when their content changed). A row
    /// that `isPinned` (old index) is kept in place whenever the other rows can move around it.
    /// - Complexity: O(n + m) plus O(k log k) for the k rows that stay in their section out of order.
    static func assemble(
        old: SectionLayout, new: SectionLayout, sections: SectionMatching, matching: RowMatching,
        isContentEqual: (Int, Int) -> Bool, isPinned: ((Int) -> Bool)? = nil
    ) -> Changeset {
        var changeset = Changeset(
            sectionDeletes: sections.deletes, sectionInserts: sections.inserts, sectionMoves: sections.moves,
            sectionCountsBefore: old.counts, sectionCountsAfter: new.counts)
        matching.oldToNew.withUnsafeBufferPointer { oldToNew in
            matching.newToOld.withUnsafeBufferPointer { newToOld in
                assembleOldRows(
                    into: &changeset, old: old, new: new, sections: sections, oldToNew: oldToNew,
                    isContentEqual: isContentEqual, isPinned: isPinned)
                assembleInserts(into: &changeset, old: old, new: new, sections: sections, newToOld: newToOld)
            }
        }
        return changeset
    }

    /// Deletes, moves and updates, found walking the old rows of each surviving section in order.
    private static func assembleOldRows(
        into changeset: inout Changeset, old: SectionLayout, new: SectionLayout, sections: SectionMatching,
        oldToNew: UnsafeBufferPointer<Int32>, isContentEqual: (Int, Int) -> Bool, isPinned: ((Int) -> Bool)?
    ) {
        var longest = 0
        for section in 0..<old.sectionCount where sections.oldTarget[section] >= 0 {
            longest = max(longest, old.end(section) - old.start(section))
        }
        guard longest > 0 else { return }
        let fates = UnsafeMutableBufferPointer<RowFate>.allocate(capacity: longest)
        defer { fates.deallocate() }
        var lis = LongestIncreasingSubsequence(capacity: longest)
        for section in 0..<old.sectionCount {
            let target = sections.oldTarget[section]
            guard target >= 0 else { continue }
            let low = old.start(section)
            let rowCount = old.end(section) - low
            let newLow = Int32(truncatingIfNeeded: new.start(target))
            let newHigh = Int32(truncatingIfNeeded: new.end(target))
            // Forward: each row's fate, and the patience piles of the new indexes of rows staying in the section.
            lis.reset()
            var stayers = 0
            for row in 0..<rowCount {
                let j = oldToNew[low + row]
                if j >= newLow && j < newHigh {
                    fates[row] = .staysInPlace
                    lis.add(j, at: row)
                    stayers += 1
                } else if j < 0 || sections.newSource[new.section(containing: Int(j))] < 0 {
                    fates[row] = .deleted
                } else {
                    fates[row] = .leavesSection
                }
            }
            // Only when some stayers are out of order: those outside one longest run move. Of the longest runs,
            // one that keeps the rows whose index path does not change (same section, same row), where it can.
            if lis.length < stayers {
                let isSameSection = section == target
                // The last candidate at each place first (one pass); only when that moves a row to its own path
                // is the run chosen again, preferring such rows.
                lis.beginBackward()
                var movesToItself = false
                var row = rowCount - 1
                while row >= 0 {
                    if fates[row] == .staysInPlace && !lis.takeBackward(oldToNew[low + row], at: row) {
                        fates[row] = .movesInSection
                        movesToItself = movesToItself || (isSameSection && Int(oldToNew[low + row] - newLow) == row)
                    }
                    row -= 1
                }
                if movesToItself {
                    for row in 0..<rowCount where fates[row] == .staysInPlace { fates[row] = .movesInSection }
                    lis.chooseBackward(
                        count: rowCount, added: { fates[$0] == .movesInSection }, value: { oldToNew[low + $0] },
                        isFixed: { isSameSection && Int(oldToNew[low + $0] - newLow) == $0 },
                        keep: { fates[$0] = .staysInPlace })
                }
                if let isPinned, (0..<rowCount).contains(where: { fates[$0] == .movesInSection && isPinned(low + $0) })
                {
                    // A pinned row would move: keep the most pinned rows in place (then as many others as can stay
                    // with them), so that the others move around them.
                    let stays = (0..<rowCount).map { fates[$0] == .staysInPlace || fates[$0] == .movesInSection }
                    var pinnedTargets = [Bool](repeating: false, count: Int(newHigh - newLow))
                    let targets = (0..<rowCount).map { row -> Int in
                        guard stays[row] else { return -1 }
                        let target = Int(oldToNew[low + row] - newLow)
                        if isPinned(low + row) { pinnedTargets[target] = true }
                        return target
                    }
                    let kept = LongestIncreasingSubsequence.keptInPlace(
                        targets: targets, preferring: pinnedTargets, preferenceFirst: true)
                    for row in 0..<rowCount where stays[row] {
                        fates[row] = kept[row] ? .staysInPlace : .movesInSection
                    }
                }
            }
            // Report (room made first: a reversed list of a million rows is a million moves).
            var moving = 0
            for row in 0..<rowCount where fates[row] == .movesInSection || fates[row] == .leavesSection { moving += 1 }
            changeset.rowMoves.reserveCapacity(changeset.rowMoves.count + moving)
            for row in 0..<rowCount {
                let i = low + row
                let from = RowPath(section: section, row: row)
                switch fates[row] {
                case .deleted:
                    changeset.rowDeletes.append(from)
                case .leavesSection:
                    let j = Int(oldToNew[i])
                    let newSection = new.section(containing: j)
                    let to = RowPath(section: newSection, row: j - new.start(newSection))
                    changeset.rowMoves.append(Changeset.RowMove(from: from, to: to, isUpdated: !isContentEqual(i, j)))
                case .movesInSection:
                    let j = Int(oldToNew[i])
                    let to = RowPath(section: target, row: j - Int(newLow))
                    changeset.rowMoves.append(Changeset.RowMove(from: from, to: to, isUpdated: !isContentEqual(i, j)))
                case .staysInPlace:
                    let j = Int(oldToNew[i])
                    if !isContentEqual(i, j) {
                        let to = RowPath(section: target, row: j - Int(newLow))
                        changeset.rowUpdates.append(Changeset.RowUpdate(from: from, to: to))
                    }
                }
            }
        }
    }

    /// Inserts: new rows of surviving sections that are unmatched or come from a deleted section.
    private static func assembleInserts(
        into changeset: inout Changeset, old: SectionLayout, new: SectionLayout, sections: SectionMatching,
        newToOld: UnsafeBufferPointer<Int32>
    ) {
        let someSectionDeleted = !sections.deletes.isEmpty
        for section in 0..<new.sectionCount where sections.newSource[section] >= 0 {
            let low = new.start(section)
            for j in low..<new.end(section) {
                let i = Int(newToOld[j])
                if i < 0 || (someSectionDeleted && sections.oldTarget[old.section(containing: i)] < 0) {
                    changeset.rowInserts.append(RowPath(section: section, row: j - low))
                }
            }
        }
    }
}
