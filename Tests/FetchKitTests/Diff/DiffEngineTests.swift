@_spi(Benchmarks) import FetchKit
import FetchKitTesting
import Testing

@Suite("Diff engine: hand cases")
struct DiffEngineTests {
    /// Diffs in both modes, checks both results, and returns the shared-order one.
    @discardableResult
    func check(_ old: DiffSnapshot, _ new: DiffSnapshot) throws -> Changeset {
        let unordered = try DiffCheck.diff(old, new, sharedOrder: false)
        try DiffCheck.verify(unordered, from: old, to: new, context: "no shared order")
        let ordered = try DiffCheck.diff(old, new, sharedOrder: true)
        try DiffCheck.verify(ordered, from: old, to: new, context: "shared order")
        return ordered
    }

    func row(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    @Test("the documentation examples")
    func documentationExamples() throws {
        let old = DiffSide(keys: [1, 2, 3] as [Int64])
        let new = DiffSide(keys: [2, 3, 1] as [Int64])
        let changes = KeyedDiff.changeset(from: old, to: new) { _, _ in true }
        #expect(changes.rowMoves.map { "\($0.from) -> \($0.to)" } == ["[0, 0] -> [0, 2]"])
        let sectioned = try DiffSide(sections: [(name: "A", keys: [1, 2] as [Int64]), (name: "B", keys: [3])])
        #expect(sectioned.sectionRange(1) == 2..<3)
    }

    @Test("identical sides give an empty changeset that still carries the counts")
    func identical() throws {
        let snapshot = DiffSnapshot([
            (name: "a", items: (1...5).map { DiffItem($0, sort: Int($0)) }),
            (name: "b", items: (6...8).map { DiffItem($0, sort: Int($0)) })
        ])
        let changeset = try check(snapshot, snapshot)
        #expect(changeset.isEmpty)
        #expect(changeset.sectionCountsBefore == [5, 3])
        #expect(changeset.sectionCountsAfter == [5, 3])
    }

    @Test("moving the first of 10,000 rows to the end is one move")
    func oneMoveOfTenThousand() throws {
        let old = DiffSnapshot(items: (0..<10_000).map { DiffItem(Int64($0), sort: $0) })
        var items = old.items
        var first = items.removeFirst()
        first.sort = 20_000
        items.append(first)
        let changeset = try check(old, DiffSnapshot(items: items))
        #expect(changeset.rowMoves == [Changeset.RowMove(from: row(0, 0), to: row(0, 9_999))])
        #expect(changeset.changeCount == 1)
    }

    @Test("moving one middle row of 10,000 backwards is one move")
    func oneMiddleMove() throws {
        let old = DiffSnapshot(items: (0..<10_000).map { DiffItem(Int64($0), sort: $0 * 2) })
        var items = old.items
        var moved = items.remove(at: 7_000)
        moved.sort = 2 * 100 + 1
        items.insert(moved, at: 101)
        let changeset = try check(old, DiffSnapshot(items: items))
        #expect(changeset.rowMoves == [Changeset.RowMove(from: row(0, 7_000), to: row(0, 101))])
        #expect(changeset.changeCount == 1)
    }

    @Test("two swapped rows are one move")
    func swap() throws {
        let old = DiffSnapshot(items: [DiffItem(1, sort: 1), DiffItem(2, sort: 2), DiffItem(3, sort: 3)])
        let new = DiffSnapshot(items: [DiffItem(1, sort: 1), DiffItem(3, sort: 3), DiffItem(2, sort: 4)])
        let changeset = try check(old, new)
        #expect(changeset.rowMoves.count == 1)
        #expect(changeset.changeCount == 1)
    }

    @Test("reversing rows keeps one in place")
    func reverse() throws {
        let old = DiffSnapshot(items: (1...6).map { DiffItem($0, sort: Int($0)) })
        let new = DiffSnapshot(items: (1...6).map { DiffItem($0, sort: -Int($0)) }.reversed())
        let changeset = try check(old, new)
        #expect(changeset.rowMoves.count == 5)
    }

    @Test("a moved row whose content changed is one move flagged as updated, not an update")
    func movedAndUpdated() throws {
        let old = DiffSnapshot(items: [DiffItem(1, sort: 1), DiffItem(2, sort: 2), DiffItem(3, sort: 3)])
        let new = DiffSnapshot(items: [DiffItem(2, sort: 2), DiffItem(3, sort: 3), DiffItem(1, sort: 9, version: 1)])
        let changeset = try check(old, new)
        #expect(changeset.rowMoves == [Changeset.RowMove(from: row(0, 0), to: row(0, 2), isUpdated: true)])
        #expect(changeset.rowUpdates.isEmpty)
    }

    @Test("an update carries the old path and the new path")
    func updatePaths() throws {
        let old = DiffSnapshot(items: [DiffItem(1, sort: 1), DiffItem(2, sort: 2), DiffItem(3, sort: 3)])
        let new = DiffSnapshot(items: [DiffItem(2, sort: 2), DiffItem(3, sort: 3, version: 1), DiffItem(4, sort: 4)])
        let changeset = try check(old, new)
        #expect(changeset.rowDeletes == [row(0, 0)])
        #expect(changeset.rowInserts == [row(0, 2)])
        #expect(changeset.rowUpdates == [Changeset.RowUpdate(from: row(0, 2), to: row(0, 1))])
        #expect(changeset.rowMoves.isEmpty)
    }

    @Test("sections inserted and deleted by name; their rows are not reported one by one")
    func sectionInsertAndDelete() throws {
        let old = DiffSnapshot(keys: [("a", [1, 2]), ("b", [3, 4]), ("d", [7])])
        let new = DiffSnapshot(keys: [("a", [1, 2]), ("c", [5, 6]), ("d", [7])])
        let changeset = try check(old, new)
        #expect(changeset.sectionDeletes == [1])
        #expect(changeset.sectionInserts == [1])
        #expect(changeset.changeCount == 2)
        #expect(changeset.sectionCountsBefore == [2, 2, 1])
        #expect(changeset.sectionCountsAfter == [2, 2, 1])
    }

    @Test("a row changing section is one move")
    func crossSectionMove() throws {
        let old = DiffSnapshot(keys: [("a", [1, 2, 3]), ("b", [4, 5])])
        let new = DiffSnapshot(keys: [("a", [1, 3]), ("b", [2, 4, 5])])
        let changeset = try check(old, new)
        #expect(changeset.rowMoves == [Changeset.RowMove(from: row(0, 1), to: row(1, 0))])
        #expect(changeset.changeCount == 1)
    }

    @Test("a row leaving a deleted section for a surviving one is an insert")
    func rowLeavesDeletedSection() throws {
        let old = DiffSnapshot(keys: [("a", [1]), ("b", [2])])
        let new = DiffSnapshot(keys: [("b", [1, 2])])
        let changeset = try check(old, new)
        #expect(changeset.sectionDeletes == [0])
        #expect(changeset.rowInserts == [row(0, 0)])
        #expect(changeset.changeCount == 2)
    }

    @Test("a row moving into an inserted section is a delete")
    func rowEntersInsertedSection() throws {
        let old = DiffSnapshot(keys: [("b", [1, 2])])
        let new = DiffSnapshot(keys: [("a", [1]), ("b", [2])])
        let changeset = try check(old, new)
        #expect(changeset.sectionInserts == [0])
        #expect(changeset.rowDeletes == [row(0, 0)])
        #expect(changeset.changeCount == 2)
    }

    @Test("seed 002: the only row of the first section dragged into the second deletes the emptied section")
    func emptiedSection() throws {
        let old = DiffSnapshot(keys: [("a", [1]), ("b", [2])])
        let new = DiffSnapshot(keys: [("b", [1, 2])])
        let changeset = try check(old, new)
        #expect(changeset.sectionDeletes == [0])
    }

    @Test("empty to full and full to empty, unsectioned and sectioned")
    func emptyAndFull() throws {
        let full = DiffSnapshot(items: (1...4).map { DiffItem($0, sort: Int($0)) })
        let empty = DiffSnapshot(items: [])
        let filled = try check(empty, full)
        #expect(filled.rowInserts == (0..<4).map { row(0, $0) })
        #expect(filled.changeCount == 4)
        let emptied = try check(full, empty)
        #expect(emptied.rowDeletes == (0..<4).map { row(0, $0) })
        #expect(emptied.changeCount == 4)

        let sectioned = DiffSnapshot(keys: [("a", [1, 2]), ("b", [3])])
        let none = DiffSnapshot([])
        let appeared = try check(none, sectioned)
        #expect(appeared.sectionInserts == [0, 1])
        #expect(appeared.changeCount == 2)
        let vanished = try check(sectioned, none)
        #expect(vanished.sectionDeletes == [0, 1])
        #expect(vanished.changeCount == 2)
        #expect(try check(none, none).isEmpty)
    }

    @Test("empty sections survive, appear and vanish like any other")
    func emptySections() throws {
        let old = DiffSnapshot(keys: [("a", []), ("b", [1, 2]), ("c", [])])
        let new = DiffSnapshot(keys: [("a", [2]), ("b", []), ("d", [])])
        let changeset = try check(old, new)
        #expect(changeset.sectionDeletes == [2])
        #expect(changeset.sectionInserts == [2])
        #expect(changeset.rowMoves == [Changeset.RowMove(from: row(1, 1), to: row(0, 0))])
        #expect(changeset.rowDeletes == [row(1, 0)])
    }

    @Test("without a shared order, reordered sections are minimal section moves")
    func sectionMoves() throws {
        let old = DiffSnapshot(keys: [("a", [1]), ("b", [2]), ("c", [3]), ("d", [4])])
        let new = DiffSnapshot(keys: [("d", [4]), ("a", [1]), ("b", [2]), ("c", [3])])
        let changeset = try DiffCheck.diff(old, new, sharedOrder: false)
        try DiffCheck.verify(changeset, from: old, to: new)
        #expect(changeset.sectionMoves == [Changeset.Move(from: 3, to: 0)])
        #expect(changeset.changeCount == 1)
    }

    @Test("a moved section is never given row inserts or moves: it is reloaded instead")
    func movedSectionWithRowChanges() throws {
        // Either section could move; the one whose rows change stays in place.
        let old = DiffSnapshot(keys: [("a", [1, 2]), ("b", [3, 4])])
        let new = DiffSnapshot(keys: [("b", [3, 4]), ("a", [2, 1, 5])])
        let changeset = try DiffCheck.diff(old, new, sharedOrder: false)
        try DiffCheck.verify(changeset, from: old, to: new)
        #expect(changeset.sectionMoves == [Changeset.Move(from: 1, to: 0)])
        #expect(changeset.rowInserts == [row(1, 2)])
        #expect(changeset.rowMoves.count == 1)

        // Both sections' rows change: the moved one is deleted and inserted.
        let both = DiffSnapshot(keys: [("b", [4, 3]), ("a", [2, 1])])
        let reloaded = try DiffCheck.diff(old, both, sharedOrder: false)
        try DiffCheck.verify(reloaded, from: old, to: both)
        #expect(reloaded.sectionMoves.isEmpty)
        #expect(reloaded.sectionDeletes.count == 1)
        #expect(reloaded.sectionInserts.count == 1)
        #expect(reloaded.rowMoves.count == 1)
    }

    @Test("a wrong order callback costs speed, never correctness")
    func inconsistentOrder() throws {
        let old = DiffSnapshot(items: (1...30).map { DiffItem($0, sort: Int($0)) })
        let new = DiffSnapshot(items: [5, 1, 2, 30, 3, 4, 9, 8, 7, 31, 32, 6, 10, 11].map { DiffItem(Int64($0)) })
        for answer in [true, false] {
            let changeset = KeyedDiff.changeset(
                from: try old.side(), to: try new.side(), isOrderedBefore: { _, _ in answer },
                isContentEqual: { _, _ in true })
            try DiffCheck.verify(changeset, from: old, to: new)
        }
    }

    @Test("repeated keys (bad input) still give a batch that applies")
    func repeatedKeys() throws {
        let old = DiffSnapshot(items: [1, 2, 2, 3, 1].map { DiffItem(Int64($0)) })
        let new = DiffSnapshot(items: [2, 1, 1, 1, 4, 2].map { DiffItem(Int64($0)) })
        for shared in [true, false] {
            let changeset = KeyedDiff.changeset(
                from: try old.side(), to: try new.side(), isOrderedBefore: shared ? { $0 < $1 } : nil,
                isContentEqual: { _, _ in true })
            _ = try ListSimulator.apply(changeset, to: old.list, expecting: new.list, identifiedBy: \.key)
        }
    }

    @Test("the generic path, the Int64 table and the Dictionary residue agree")
    func pathsAgree() throws {
        let old = DiffSnapshot(keys: [("a", [1, 2, 3, 4]), ("b", [5, 6]), ("c", [7])])
        let new = DiffSnapshot(keys: [("a", [4, 2, 8]), ("c", [7, 1]), ("d", [6, 9])])
        for ordered in [true, false] {
            let byTable = try DiffCheck.diff(old, new, sharedOrder: ordered)
            let order: ((Int, Int) -> Bool)? = ordered ? { $0 < $1 } : nil
            let byTableOwnOrder = KeyedDiff.changeset(
                from: try old.side(), to: try new.side(), isOrderedBefore: order, isContentEqual: { _, _ in true })
            let byString = KeyedDiff.changeset(
                from: try old.stringSide(), to: try new.stringSide(), isOrderedBefore: order,
                isContentEqual: { _, _ in true })
            #expect(byTableOwnOrder == byString)
            try DiffCheck.verify(byTable, from: old, to: new)
            try DiffCheck.verify(byString, from: old, to: new)
        }
    }
}
