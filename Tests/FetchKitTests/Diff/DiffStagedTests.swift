@_spi(Benchmarks) import FetchKit
import FetchKitTesting
import Testing

@Suite("Staged changesets")
struct DiffStagedTests {
    func row(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    @Test("every kind of change, split into the four stages with their counts and snapshots")
    func allStages() throws {
        let old = DiffSnapshot([
            (name: "a", items: [DiffItem(1), DiffItem(2), DiffItem(3)]),
            (name: "b", items: [DiffItem(4), DiffItem(5)]),
            (name: "c", items: [DiffItem(6)])
        ])
        // b moves to the front (only losing a row); a keeps its place because its rows change order.
        let new = DiffSnapshot([
            (name: "b", items: [DiffItem(4)]),
            (name: "d", items: [DiffItem(7)]),
            (name: "a", items: [DiffItem(3, version: 1), DiffItem(1, version: 1), DiffItem(8)])
        ])
        let changeset = try DiffCheck.diff(old, new, sharedOrder: false)
        try DiffCheck.verify(changeset, from: old, to: new)
        #expect(changeset.sectionMoves == [Changeset.Move(from: 1, to: 0)])
        let staged = try changeset.staged()
        #expect(staged.changeset == changeset)
        #expect(staged.stages.map(\.kind) == [.updates, .deletes, .sectionInsertsAndMoves, .rowInsertsAndMoves])
        try verifyStages(changeset, from: old, to: new, context: "all stages")

        let snapshots = try staged.snapshots(from: try old.side(), to: try new.side())
        #expect(snapshots.map(\.sectionNames) == [["a", "b", "c"], ["a", "b"], ["b", "d", "a"], ["b", "d", "a"]])
        #expect(snapshots.map(\.keys) == [[1, 2, 3, 4, 5, 6], [1, 3, 4], [4, 7, 1, 3], [4, 7, 3, 1, 8]])
        #expect(staged.stages.map(\.sectionCounts) == [[3, 2, 1], [2, 1], [1, 1, 2], [1, 1, 3]])
        let sectionStage = try #require(staged.stages.dropFirst(2).first)
        #expect(sectionStage.changeset.sectionMoves == [Changeset.Move(from: 1, to: 0)])
        #expect(sectionStage.changeset.sectionInserts == [1])
        let rowStage = try #require(staged.stages.last)
        #expect(rowStage.changeset.rowMoves == [Changeset.RowMove(from: row(2, 0), to: row(2, 1))])
        #expect(rowStage.changeset.rowInserts == [row(2, 2)])
    }

    @Test("a moved and updated row is updated in the first stage at its old path, then moved plainly")
    func movedAndUpdated() throws {
        let changeset = Changeset(
            rowMoves: [Changeset.RowMove(from: row(0, 2), to: row(0, 0), isUpdated: true)],
            sectionCountsBefore: [3], sectionCountsAfter: [3])
        let staged = try changeset.staged()
        #expect(staged.stages.count == 2)
        let first = try #require(staged.stages.first)
        let last = try #require(staged.stages.last)
        #expect(first.changeset.rowUpdates == [Changeset.RowUpdate(from: row(0, 2), to: row(0, 2))])
        #expect(last.changeset.rowMoves == [Changeset.RowMove(from: row(0, 2), to: row(0, 0))])
    }

    @Test("move sources are read after the deletes: their rows shift up")
    func moveSourcesAfterDeletes() throws {
        let old = DiffSnapshot(keys: [("a", [1, 2, 3, 4]), ("b", [5])])
        let new = DiffSnapshot(keys: [("a", [3]), ("b", [4, 5])])
        let changeset = try DiffCheck.diff(old, new, sharedOrder: true)
        let staged = try changeset.staged()
        let last = try #require(staged.stages.last)
        #expect(last.kind == .rowInsertsAndMoves)
        #expect(last.changeset.rowMoves == [Changeset.RowMove(from: row(0, 1), to: row(1, 0))])
        #expect(last.changeset.sectionCountsBefore == [2, 1])
        try verifyStages(changeset, from: old, to: new, context: "shifted move source")
    }

    @Test("an empty changeset has no stages")
    func empty() throws {
        let staged = try Changeset(sectionCountsBefore: [2], sectionCountsAfter: [2]).staged()
        #expect(staged.stages.isEmpty)
        #expect(try staged.snapshots(from: [(section: "a", rows: [1, 2])], to: [(section: "a", rows: [1, 2])]).isEmpty)
    }

    @Test(
        "a changeset that breaks the contract cannot be staged",
        arguments: [
            Changeset(rowDeletes: [RowPath(section: 0, row: 5)], sectionCountsBefore: [2], sectionCountsAfter: [1]),
            Changeset(rowDeletes: [RowPath(section: 1, row: 0)], sectionCountsBefore: [2], sectionCountsAfter: [1]),
            Changeset(
                sectionDeletes: [0], rowDeletes: [RowPath(section: 0, row: 0)], sectionCountsBefore: [1],
                sectionCountsAfter: []),
            Changeset(
                sectionInserts: [0], rowInserts: [RowPath(section: 0, row: 0)], sectionCountsBefore: [],
                sectionCountsAfter: [1]),
            Changeset(sectionDeletes: [0, 0], sectionCountsBefore: [1, 1], sectionCountsAfter: []),
            Changeset(sectionInserts: [0], sectionCountsBefore: [1], sectionCountsAfter: [1]),
            Changeset(
                sectionMoves: [Changeset.Move(from: 0, to: 1), Changeset.Move(from: 1, to: 1)],
                sectionCountsBefore: [1, 1], sectionCountsAfter: [1, 1]),
            Changeset(
                rowMoves: [Changeset.RowMove(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 3))],
                sectionCountsBefore: [2], sectionCountsAfter: [2]),
            Changeset(
                rowDeletes: [RowPath(section: 0, row: 0), RowPath(section: 0, row: 0)], sectionCountsBefore: [2],
                sectionCountsAfter: [0]),
            Changeset(
                rowUpdates: [Changeset.RowUpdate(from: RowPath(section: 0, row: -1), to: RowPath(section: 0, row: 0))],
                sectionCountsBefore: [1], sectionCountsAfter: [1])
        ])
    func invalid(_ changeset: Changeset) {
        #expect(throws: FetchKitError.self) { try changeset.staged() }
    }

    @Test("the same row number in different sections is two rows (validation counts rows section by section)")
    func rowsOfSeveralSections() throws {
        let changeset = Changeset(
            rowDeletes: [RowPath(section: 0, row: 1), RowPath(section: 1, row: 1)],
            rowInserts: [RowPath(section: 0, row: 0), RowPath(section: 1, row: 0), RowPath(section: 2, row: 0)],
            rowMoves: [Changeset.RowMove(from: RowPath(section: 2, row: 0), to: RowPath(section: 1, row: 1))],
            sectionCountsBefore: [2, 2, 1], sectionCountsAfter: [2, 3, 1])
        #expect(try changeset.staged().stages.map(\.kind) == [.deletes, .rowInsertsAndMoves])
        var twice = changeset
        twice.rowMoves.append(Changeset.RowMove(from: RowPath(section: 1, row: 0), to: RowPath(section: 1, row: 0)))
        #expect(throws: FetchKitError.self) { try twice.staged() }
    }

    @Test("snapshots refuse results whose counts differ from the changeset's")
    func snapshotCounts() throws {
        let staged = try Changeset(
            rowDeletes: [RowPath(section: 0, row: 0)], sectionCountsBefore: [2], sectionCountsAfter: [1]
        ).staged()
        #expect(throws: FetchKitError.self) {
            try staged.snapshots(from: [(section: "a", rows: [1])], to: [(section: "a", rows: [2])])
        }
        let snapshots = try staged.snapshots(from: [(section: "a", rows: [1, 2])], to: [(section: "a", rows: [2])])
        #expect(snapshots.map { $0.map(\.rows) } == [[[2]]])
    }
}
