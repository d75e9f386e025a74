import FetchKit

extension ListSimulator {
    /// Where each section goes under a batch, after checking the batch's section operations.
    ///
    /// UIKit's model: deleted and moved-out sections leave the old list; inserted sections and move destinations
    /// take their new indexes; the remaining old sections keep their order and fill the free new indexes.
    struct SectionPlan {
        /// For each old section, its new index, or `nil` when it is deleted.
        var oldToNew: [Int?]
        /// For each new section, its old index, or `nil` when it is inserted.
        var newToOld: [Int?]
        /// For each old section, whether it is deleted.
        var deleted: [Bool]
        /// For each new section, whether it is inserted.
        var inserted: [Bool]
        /// For each new section, whether it is the destination of a section move.
        var movedIn: [Bool]

        /// Checks the section operations of `changeset` between `oldCount` and `newCount` sections.
        init(_ changeset: Changeset, oldCount: Int, newCount: Int) throws(Violation) {
            deleted = [Bool](repeating: false, count: oldCount)
            for section in changeset.sectionDeletes {
                guard (0..<oldCount).contains(section) else {
                    throw .sectionOutOfRange(.delete, section: section, sectionCount: oldCount)
                }
                guard !deleted[section] else { throw .sectionConflict(.deletedTwice, section: section) }
                deleted[section] = true
            }
            inserted = [Bool](repeating: false, count: newCount)
            for section in changeset.sectionInserts {
                guard (0..<newCount).contains(section) else {
                    throw .sectionOutOfRange(.insert, section: section, sectionCount: newCount)
                }
                guard !inserted[section] else { throw .sectionConflict(.insertedTwice, section: section) }
                inserted[section] = true
            }
            var moveSource = [Int?](repeating: nil, count: newCount)
            var movedOut = [Bool](repeating: false, count: oldCount)
            for move in changeset.sectionMoves {
                guard (0..<oldCount).contains(move.from) else {
                    throw .sectionOutOfRange(.moveSource, section: move.from, sectionCount: oldCount)
                }
                guard (0..<newCount).contains(move.to) else {
                    throw .sectionOutOfRange(.moveDestination, section: move.to, sectionCount: newCount)
                }
                guard !deleted[move.from] else { throw .sectionConflict(.deletedAndMoved, section: move.from) }
                guard !movedOut[move.from] else { throw .sectionConflict(.movedTwiceFrom, section: move.from) }
                guard !inserted[move.to] else { throw .sectionConflict(.insertedAtMoveDestination, section: move.to) }
                guard moveSource[move.to] == nil else { throw .sectionConflict(.movedTwiceTo, section: move.to) }
                movedOut[move.from] = true
                moveSource[move.to] = move.from
            }
            try ListSimulator.checkAscending(changeset.sectionDeletes, field: "sectionDeletes")
            try ListSimulator.checkAscending(changeset.sectionInserts, field: "sectionInserts")
            guard newCount == oldCount - changeset.sectionDeletes.count + changeset.sectionInserts.count else {
                throw .invalidSectionCount(
                    before: oldCount, after: newCount,
                    inserted: changeset.sectionInserts.count, deleted: changeset.sectionDeletes.count)
            }
            let isDeleted = self.deleted
            let isInserted = self.inserted
            var stayers = (0..<oldCount).lazy.filter { !isDeleted[$0] && !movedOut[$0] }.makeIterator()
            newToOld = (0..<newCount).map { isInserted[$0] ? nil : moveSource[$0] ?? stayers.next() }
            oldToNew = [Int?](repeating: nil, count: oldCount)
            for (new, old) in newToOld.enumerated() {
                if let old { oldToNew[old] = new }
            }
            movedIn = moveSource.map { $0 != nil }
            try checkNoOpMoves(changeset.sectionMoves, movedOut: movedOut)
        }

        /// Throws for a section move without which the section would land at the same index.
        private func checkNoOpMoves(_ moves: [Changeset.Move], movedOut: [Bool]) throws(Violation) {
            guard !moves.isEmpty else { return }
            // removedBefore[i]: old sections before i that leave (deleted or moved out);
            // occupiedBefore[j]: new sections before j that are taken (inserted or moved in).
            let removedBefore = ListSimulator.prefixCounts(deleted.indices.map { deleted[$0] || movedOut[$0] })
            let occupiedBefore = ListSimulator.prefixCounts(inserted.indices.map { inserted[$0] || movedIn[$0] })
            for move in moves where move.from - removedBefore[move.from] == move.to - occupiedBefore[move.to] {
                throw .noOpSectionMove(move)
            }
        }
    }

    /// `result[i]` is the number of `true` flags before index `i`.
    static func prefixCounts(_ flags: [Bool]) -> [Int] {
        var result = [Int]()
        result.reserveCapacity(flags.count)
        var count = 0
        for flag in flags {
            result.append(count)
            if flag { count += 1 }
        }
        return result
    }

    /// Throws unless `values` is strictly ascending.
    static func checkAscending<T: Comparable & CustomStringConvertible>(
        _ values: [T], field: String
    ) throws(Violation) {
        for (previous, next) in zip(values, values.dropFirst()) where !(previous < next) {
            throw .notAscending(field: field, previous: previous.description, next: next.description)
        }
    }
}
