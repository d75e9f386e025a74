extension Changeset {
    /// Checks that every index lies inside the counts the changeset carries, nothing is named twice, no row
    /// operation falls inside an inserted or deleted section, and the section counts add up.
    ///
    /// This is what staging needs to stay in bounds; FetchKitTesting's `ListSimulator` checks the full contract.
    func checkIndexes() throws {
        let oldCount = sectionCountsBefore.count
        let newCount = sectionCountsAfter.count
        func fail(_ message: String) -> FetchKitError {
            FetchKitError.invalidValue("changeset: \(message)")
        }
        // Sections and rows are marked in flat bitmaps sized by the known counts: O(s + n) with a small
        // constant (sets of index paths made validation most of the time of `staged()` on large lists).
        var deleted = FlatBitmap(count: oldCount)
        var movedFrom = FlatBitmap(count: oldCount)
        var deletedCount = 0
        for section in sectionDeletes {
            guard section >= 0, section < oldCount else { throw fail("section delete \(section) out of range") }
            guard deleted.insert(section) else { throw fail("section \(section) deleted twice") }
            deletedCount += 1
        }
        var inserted = FlatBitmap(count: newCount)
        var movedTo = FlatBitmap(count: newCount)
        var insertedCount = 0
        for section in sectionInserts {
            guard section >= 0, section < newCount else { throw fail("section insert \(section) out of range") }
            guard inserted.insert(section) else { throw fail("section \(section) inserted twice") }
            insertedCount += 1
        }
        for move in sectionMoves {
            guard move.from >= 0, move.from < oldCount, move.to >= 0, move.to < newCount else {
                throw fail("section move \(move.from) -> \(move.to) out of range")
            }
            guard !deleted.contains(move.from), movedFrom.insert(move.from) else {
                throw fail("section \(move.from) moved twice or deleted and moved")
            }
            guard !inserted.contains(move.to), movedTo.insert(move.to) else {
                throw fail("section move to \(move.to) collides with another insert or move")
            }
        }
        guard oldCount - deletedCount + insertedCount == newCount else {
            throw fail(
                "\(oldCount) sections - \(deletedCount) deleted + \(insertedCount) inserted is not \(newCount)")
        }
        let oldStarts = Self.starts(of: sectionCountsBefore)
        let newStarts = Self.starts(of: sectionCountsAfter)
        func checkOld(_ path: RowPath, _ what: String) throws -> Int {
            guard path.section >= 0, path.section < oldCount, path.row >= 0,
                path.row < sectionCountsBefore[path.section]
            else { throw fail("\(what) \(path) outside the old counts") }
            guard !deleted.contains(path.section) else { throw fail("\(what) \(path) inside a deleted section") }
            return oldStarts[path.section] + path.row
        }
        func checkNew(_ path: RowPath, _ what: String) throws -> Int {
            guard path.section >= 0, path.section < newCount, path.row >= 0,
                path.row < sectionCountsAfter[path.section]
            else { throw fail("\(what) \(path) outside the new counts") }
            guard !inserted.contains(path.section) else { throw fail("\(what) \(path) inside an inserted section") }
            return newStarts[path.section] + path.row
        }
        var sources = FlatBitmap(count: oldStarts.last ?? 0)
        var destinations = FlatBitmap(count: newStarts.last ?? 0)
        for path in rowDeletes {
            guard sources.insert(try checkOld(path, "row delete")) else { throw fail("row \(path) deleted twice") }
        }
        for path in rowInserts {
            guard destinations.insert(try checkNew(path, "row insert")) else {
                throw fail("row \(path) inserted twice")
            }
        }
        for move in rowMoves {
            let from = try checkOld(move.from, "row move")
            let to = try checkNew(move.to, "row move")
            guard sources.insert(from) else { throw fail("row \(move.from) deleted or moved twice") }
            guard destinations.insert(to) else {
                throw fail("row move to \(move.to) collides with another insert or move")
            }
        }
        for update in rowUpdates {
            _ = try checkOld(update.from, "row update")
            _ = try checkNew(update.to, "row update")
        }
    }

    /// Where each section starts among all rows, and the total last: `counts.count + 1` values.
    private static func starts(of counts: [Int]) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count + 1)
        var total = 0
        for count in counts {
            starts.append(total)
            total += max(count, 0)
        }
        starts.append(total)
        return starts
    }
}

/// A set of the integers `0..<count`, one bit each.
private struct FlatBitmap {
    private var words: [UInt64]

    init(count: Int) {
        words = Array(repeating: 0, count: (max(count, 0) + 63) / 64)
    }

    func contains(_ index: Int) -> Bool {
        words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Adds `index`; `false` when it was already there.
    mutating func insert(_ index: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(index & 63)
        guard words[index >> 6] & bit == 0 else { return false }
        words[index >> 6] |= bit
        return true
    }
}
