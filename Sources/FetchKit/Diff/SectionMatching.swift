/// Which old section each new section is, by name, and the fewest section moves that reorder them.
struct SectionMatching {
    /// For each old section, its new index, or -1 when it is deleted.
    var oldTarget: [Int]
    /// For each new section, its old index, or -1 when it is inserted.
    var newSource: [Int]
    /// Old indexes of deleted sections, ascending.
    var deletes: [Int] = []
    /// New indexes of inserted sections, ascending.
    var inserts: [Int] = []
    /// Matched sections that move, ascending by old index.
    var moves: [Changeset.Move] = []

    /// Matches sections by name (names are unique on each side).
    /// - Complexity: O(sections).
    init(oldNames: [String], newNames: [String]) {
        if oldNames.isSameSections(as: newNames) {
            oldTarget = Array(oldNames.indices)
            newSource = Array(newNames.indices)
            return
        }
        var newIndex = [SectionName: Int](minimumCapacity: newNames.count)
        for (index, name) in newNames.enumerated() { newIndex[SectionName(name)] = index }
        oldTarget = oldNames.map { newIndex[SectionName($0)] ?? -1 }
        newSource = [Int](repeating: -1, count: newNames.count)
        for (old, new) in oldTarget.enumerated() {
            if new >= 0 { newSource[new] = old } else { deletes.append(old) }
        }
        inserts = newSource.indices.filter { newSource[$0] < 0 }
    }

    /// Chooses the section moves when matched sections changed order: the fewest moves (the sections kept in
    /// place form a longest increasing run), preferring to keep in place the sections whose rows change.
    ///
    /// A moved section must not receive row inserts or moves (UIKit's fragile case); a moved section whose rows
    /// would need them is reported deleted and inserted instead, so its rows are not reported one by one.
    /// - Complexity: O(sections log sections), plus O(rows) when sections changed order.
    mutating func planMoves(old: SectionLayout, new: SectionLayout, matching: RowMatching) {
        guard !keepsRelativeOrder else { return }
        let receivesRows = (0..<new.sectionCount).map {
            sectionReceivesRows($0, old: old, new: new, matching: matching)
        }
        let kept = LongestIncreasingSubsequence.keptInPlace(targets: oldTarget, preferring: receivesRows)
        var reloaded: [(old: Int, new: Int)] = []
        for (section, target) in oldTarget.enumerated() where target >= 0 && !kept[section] {
            if receivesRows[target] {
                reloaded.append((old: section, new: target))
            } else {
                moves.append(Changeset.Move(from: section, to: target))
            }
        }
        guard !reloaded.isEmpty else { return }
        for (section, target) in reloaded {
            oldTarget[section] = -1
            newSource[target] = -1
        }
        deletes = oldTarget.indices.filter { oldTarget[$0] < 0 }
        inserts = newSource.indices.filter { newSource[$0] < 0 }
    }

    /// Whether new section `section` would get a row insert or a row move destination.
    private func sectionReceivesRows(_ section: Int, old: SectionLayout, new: SectionLayout, matching: RowMatching)
        -> Bool
    {
        let source = newSource[section]
        guard source >= 0 else { return false }
        let low = old.start(source)
        let high = old.end(source)
        var previous = -1
        for j in new.start(section)..<new.end(section) {
            let i = Int(matching.newToOld[j])
            guard i >= low, i < high, i > previous else { return true }
            previous = i
        }
        return false
    }
}
