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
        var deleted = Set<Int>()
        var movedFrom = Set<Int>()
        for section in sectionDeletes {
            guard section >= 0, section < oldCount else { throw fail("section delete \(section) out of range") }
            guard deleted.insert(section).inserted else { throw fail("section \(section) deleted twice") }
        }
        var inserted = Set<Int>()
        var movedTo = Set<Int>()
        for section in sectionInserts {
            guard section >= 0, section < newCount else { throw fail("section insert \(section) out of range") }
            guard inserted.insert(section).inserted else { throw fail("section \(section) inserted twice") }
        }
        for move in sectionMoves {
            guard move.from >= 0, move.from < oldCount, move.to >= 0, move.to < newCount else {
                throw fail("section move \(move.from) -> \(move.to) out of range")
            }
            guard !deleted.contains(move.from), movedFrom.insert(move.from).inserted else {
                throw fail("section \(move.from) moved twice or deleted and moved")
            }
            guard !inserted.contains(move.to), movedTo.insert(move.to).inserted else {
                throw fail("section move to \(move.to) collides with another insert or move")
            }
        }
        guard oldCount - deleted.count + inserted.count == newCount else {
            throw fail(
                "\(oldCount) sections - \(deleted.count) deleted + \(inserted.count) inserted is not \(newCount)")
        }
        func checkOld(_ path: RowPath, _ what: String) throws {
            guard path.section >= 0, path.section < oldCount, path.row >= 0,
                path.row < sectionCountsBefore[path.section]
            else { throw fail("\(what) \(path) outside the old counts") }
            guard !deleted.contains(path.section) else { throw fail("\(what) \(path) inside a deleted section") }
        }
        func checkNew(_ path: RowPath, _ what: String) throws {
            guard path.section >= 0, path.section < newCount, path.row >= 0,
                path.row < sectionCountsAfter[path.section]
            else { throw fail("\(what) \(path) outside the new counts") }
            guard !inserted.contains(path.section) else { throw fail("\(what) \(path) inside an inserted section") }
        }
        var sources = Set<RowPath>()
        var destinations = Set<RowPath>()
        for path in rowDeletes {
            try checkOld(path, "row delete")
            guard sources.insert(path).inserted else { throw fail("row \(path) deleted twice") }
        }
        for path in rowInserts {
            try checkNew(path, "row insert")
            guard destinations.insert(path).inserted else { throw fail("row \(path) inserted twice") }
        }
        for move in rowMoves {
            try checkOld(move.from, "row move")
            try checkNew(move.to, "row move")
            guard sources.insert(move.from).inserted else { throw fail("row \(move.from) deleted or moved twice") }
            guard destinations.insert(move.to).inserted else {
                throw fail("row move to \(move.to) collides with another insert or move")
            }
        }
        for update in rowUpdates {
            try checkOld(update.from, "row update")
            try checkNew(update.to, "row update")
        }
    }
}
