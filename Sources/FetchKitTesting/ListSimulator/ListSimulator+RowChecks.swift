import FetchKit

extension ListSimulator {
    /// Checks the row operations of `changeset`: ranges, sections changed by the same batch, conflicts, order,
    /// row counts and no-op moves.
    static func checkRows(
        _ changeset: Changeset, plan: SectionPlan, oldCounts: [Int], newCounts: [Int]
    ) throws(Violation) {
        try checkRanges(changeset, plan: plan, oldCounts: oldCounts, newCounts: newCounts)
        try checkConflicts(changeset)
        try checkAscending(changeset.rowDeletes, field: "rowDeletes")
        try checkAscending(changeset.rowInserts, field: "rowInserts")
        try checkRowCounts(changeset, plan: plan, oldCounts: oldCounts, newCounts: newCounts)
        try checkNoOpMoves(changeset, plan: plan, oldCounts: oldCounts, newCounts: newCounts)
    }

    /// Every path in range of its index space, and outside sections the batch deletes, inserts or moves into.
    private static func checkRanges(
        _ changeset: Changeset, plan: SectionPlan, oldCounts: [Int], newCounts: [Int]
    ) throws(Violation) {
        func check(_ path: RowPath, _ operation: Violation.Operation) throws(Violation) {
            let counts = operation.usesOldIndexes ? oldCounts : newCounts
            guard counts.indices.contains(path.section) else {
                throw .rowOutOfRange(operation, path, sectionCount: counts.count, rowCount: nil)
            }
            guard (0..<counts[path.section]).contains(path.row) else {
                throw .rowOutOfRange(operation, path, sectionCount: counts.count, rowCount: counts[path.section])
            }
            if operation.usesOldIndexes {
                if plan.deleted[path.section] { throw .rowInChangedSection(operation, path, .deleted) }
            } else if plan.inserted[path.section] {
                throw .rowInChangedSection(operation, path, .inserted)
            } else if plan.movedIn[path.section] && operation != .updateDestination {
                throw .rowInChangedSection(operation, path, .moved)
            }
        }
        for path in changeset.rowDeletes { try check(path, .delete) }
        for path in changeset.rowInserts { try check(path, .insert) }
        for move in changeset.rowMoves {
            try check(move.from, .moveSource)
            try check(move.to, .moveDestination)
        }
        for update in changeset.rowUpdates {
            try check(update.from, .updateSource)
            try check(update.to, .updateDestination)
        }
    }

    /// No two operations claim the same path in the same index space.
    private static func checkConflicts(_ changeset: Changeset) throws(Violation) {
        var deleted = Set<RowPath>()
        for path in changeset.rowDeletes where !deleted.insert(path).inserted {
            throw .rowConflict(.deletedTwice, path)
        }
        var inserted = Set<RowPath>()
        for path in changeset.rowInserts where !inserted.insert(path).inserted {
            throw .rowConflict(.insertedTwice, path)
        }
        var movedFrom = Set<RowPath>()
        var movedTo = Set<RowPath>()
        for move in changeset.rowMoves {
            guard !deleted.contains(move.from) else { throw .rowConflict(.deletedAndMoved, move.from) }
            guard movedFrom.insert(move.from).inserted else { throw .rowConflict(.movedTwiceFrom, move.from) }
            guard !inserted.contains(move.to) else { throw .rowConflict(.insertedAtMoveDestination, move.to) }
            guard movedTo.insert(move.to).inserted else { throw .rowConflict(.movedTwiceTo, move.to) }
        }
        var updated = Set<RowPath>()
        for update in changeset.rowUpdates {
            guard !deleted.contains(update.from) else { throw .rowConflict(.deletedAndUpdated, update.from) }
            guard !movedFrom.contains(update.from) else { throw .rowConflict(.movedAndUpdated, update.from) }
            guard updated.insert(update.from).inserted else { throw .rowConflict(.updatedTwice, update.from) }
        }
    }

    /// UIKit's invariant for every section in both snapshots:
    /// after = before + inserted − deleted + moved in − moved out.
    private static func checkRowCounts(
        _ changeset: Changeset, plan: SectionPlan, oldCounts: [Int], newCounts: [Int]
    ) throws(Violation) {
        var deleted = [Int](repeating: 0, count: oldCounts.count)
        var movedOut = [Int](repeating: 0, count: oldCounts.count)
        var inserted = [Int](repeating: 0, count: newCounts.count)
        var movedIn = [Int](repeating: 0, count: newCounts.count)
        for path in changeset.rowDeletes { deleted[path.section] += 1 }
        for path in changeset.rowInserts { inserted[path.section] += 1 }
        for move in changeset.rowMoves {
            movedOut[move.from.section] += 1
            movedIn[move.to.section] += 1
        }
        for (new, old) in plan.newToOld.enumerated() {
            guard let old else { continue }
            let expected = oldCounts[old] + inserted[new] - deleted[old] + movedIn[new] - movedOut[old]
            guard newCounts[new] == expected else {
                throw .invalidRowCount(
                    section: new, oldSection: old, before: oldCounts[old], after: newCounts[new],
                    inserted: inserted[new], deleted: deleted[old], movedIn: movedIn[new], movedOut: movedOut[old])
            }
        }
    }

    /// Throws for a move within one section (old section mapped to the new one) without which the row would land
    /// at the same path: its rank among the rows that stay equals the rank of its destination among free slots.
    private static func checkNoOpMoves(
        _ changeset: Changeset, plan: SectionPlan, oldCounts: [Int], newCounts: [Int]
    ) throws(Violation) {
        let candidates = changeset.rowMoves.filter { plan.oldToNew[$0.from.section] == $0.to.section }
        guard !candidates.isEmpty else { return }
        // Per section: old rows that leave (deleted or moved out), new rows that are taken (inserted or moved in).
        var leaving = [[Int]](repeating: [], count: oldCounts.count)
        var taken = [[Int]](repeating: [], count: newCounts.count)
        for path in changeset.rowDeletes { leaving[path.section].append(path.row) }
        for path in changeset.rowInserts { taken[path.section].append(path.row) }
        for move in changeset.rowMoves {
            leaving[move.from.section].append(move.from.row)
            taken[move.to.section].append(move.to.row)
        }
        leaving = leaving.map { $0.sorted() }
        taken = taken.map { $0.sorted() }
        for move in candidates {
            let rank = move.from.row - countBelow(move.from.row, in: leaving[move.from.section])
            let slot = move.to.row - countBelow(move.to.row, in: taken[move.to.section])
            if rank == slot { throw .noOpRowMove(move) }
        }
    }

    /// The number of elements of the ascending `rows` below `row`.
    private static func countBelow(_ row: Int, in rows: [Int]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < row { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
