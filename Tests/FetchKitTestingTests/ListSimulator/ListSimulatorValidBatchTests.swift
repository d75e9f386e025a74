import FetchKit
import FetchKitTesting
import Testing

@Suite struct ListSimulatorValidBatchTests {
    typealias Case = SimulatorCase
    let p = SimulatorCase.path

    /// Applies `changeset` and expects it to pass and give `new`.
    private func expectValid(
        _ changeset: Changeset, _ old: [[String]], _ new: [[String]], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let result = try ListSimulator.apply(changeset, to: old, expecting: new)
            #expect(result == new, sourceLocation: sourceLocation)
        } catch {
            Issue.record("rejected: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func emptyBatches() {
        expectValid(Changeset(sectionCountsBefore: [], sectionCountsAfter: []), [], [])
        expectValid(Case.batch([["a", "b"], []], [["a", "b"], []]), [["a", "b"], []], [["a", "b"], []])
        #expect(Case.batch([["a"]], [["a"]]).isEmpty)
    }

    @Test func deletesAndInserts() {
        let old = [["a", "b", "c", "d"]]
        expectValid(Case.batch(old, [["b", "d"]]) { $0.rowDeletes = [p(0, 0), p(0, 2)] }, old, [["b", "d"]])
        let grown = [["x", "a", "b", "y", "c", "d", "z"]]
        expectValid(Case.batch(old, grown) { $0.rowInserts = [p(0, 0), p(0, 3), p(0, 6)] }, old, grown)
        // Deletes use old paths and inserts new ones, whatever the order UIKit is told them in.
        let both = [["x", "b", "c", "y"]]
        expectValid(
            Case.batch(old, both) {
                $0.rowDeletes = [p(0, 0), p(0, 3)]
                $0.rowInserts = [p(0, 0), p(0, 3)]
            }, old, both)
    }

    @Test func movesWithinASection() {
        let old = [["a", "b", "c", "d"]]
        expectValid(
            Case.batch(old, [["b", "c", "d", "a"]]) { $0.rowMoves = [.init(from: p(0, 0), to: p(0, 3))] },
            old, [["b", "c", "d", "a"]])
        expectValid(
            Case.batch(old, [["d", "a", "b", "c"]]) { $0.rowMoves = [.init(from: p(0, 3), to: p(0, 0))] },
            old, [["d", "a", "b", "c"]])
        expectValid(
            Case.batch(old, [["d", "c", "b", "a"]]) {
                $0.rowMoves = [
                    .init(from: p(0, 3), to: p(0, 0)), .init(from: p(0, 2), to: p(0, 1)),
                    .init(from: p(0, 1), to: p(0, 2))
                ]
            }, old, [["d", "c", "b", "a"]])
    }

    @Test func aMoveToTheSamePathThatIsNotANoOp() {
        // [A, B, X, C, D] -> [C, D, X, A, B]: keeping A and B, the fewest moves move X too, to where it was.
        let old = [["A", "B", "X", "C", "D"]]
        let new = [["C", "D", "X", "A", "B"]]
        expectValid(
            Case.batch(old, new) {
                $0.rowMoves = [
                    .init(from: p(0, 3), to: p(0, 0)), .init(from: p(0, 4), to: p(0, 1)),
                    .init(from: p(0, 2), to: p(0, 2))
                ]
            }, old, new)
    }

    @Test func movesAcrossSections() {
        let old = [["a", "b"], ["c"], []]
        let new = [["b"], ["c", "a"], []]
        expectValid(Case.batch(old, new) { $0.rowMoves = [.init(from: p(0, 0), to: p(1, 1))] }, old, new)
        let emptied = [[], ["c"], ["b", "a"]]
        expectValid(
            Case.batch(old, emptied) {
                $0.rowMoves = [.init(from: p(0, 0), to: p(2, 1)), .init(from: p(0, 1), to: p(2, 0))]
            }, old, emptied)
    }

    @Test func movedRowThatChangedIsOneUpdatedMove() throws {
        struct Item: Equatable {
            var id: Int
            var title: String
        }
        let old = [[Item(id: 1, title: "a"), Item(id: 2, title: "b")], [Item(id: 3, title: "c")]]
        let new = [[Item(id: 2, title: "b")], [Item(id: 1, title: "a!"), Item(id: 3, title: "c")]]
        let batch = Case.batch(old, new) { $0.rowMoves = [.init(from: p(0, 0), to: p(1, 0), isUpdated: true)] }
        let result = try ListSimulator.apply(batch, to: old, expecting: new, identifiedBy: \.id)
        #expect(result == new)
        var stale = batch
        stale.rowMoves[0].isUpdated = false
        #expect(throws: ListSimulator.Violation.self) {
            try ListSimulator.apply(stale, to: old, expecting: new, identifiedBy: \.id)
        }
    }

    @Test func updateWithShiftedPaths() throws {
        struct Item: Equatable {
            var id: String
            var version: Int
        }
        let old = [[Item(id: "a", version: 0), Item(id: "b", version: 0), Item(id: "c", version: 0)]]
        let new = [
            [
                Item(id: "x", version: 0), Item(id: "y", version: 0), Item(id: "a", version: 0),
                Item(id: "c", version: 1)
            ]
        ]
        let batch = Case.batch(old, new) {
            $0.rowDeletes = [p(0, 1)]
            $0.rowInserts = [p(0, 0), p(0, 1)]
            $0.rowUpdates = [.init(from: p(0, 2), to: p(0, 3))]
        }
        #expect(try ListSimulator.apply(batch, to: old, expecting: new, identifiedBy: \.id) == new)
    }

    @Test func sectionChangesWithRowChangesInSurvivingSections() throws {
        let old: SimulatorCase.Sections = [
            (section: "A", rows: ["a", "b"]), (section: "B", rows: ["c"]),
            (section: "C", rows: ["d", "e"]), (section: "D", rows: ["f"])
        ]
        let new: SimulatorCase.Sections = [
            (section: "C", rows: ["d"]), (section: "X", rows: ["x"]),
            (section: "A", rows: ["b", "g"]), (section: "D", rows: ["f", "e"])
        ]
        let batch = Changeset(
            sectionDeletes: [1], sectionInserts: [1], sectionMoves: [.init(from: 2, to: 0)],
            rowDeletes: [p(0, 0)], rowInserts: [p(2, 1)], rowMoves: [.init(from: p(2, 1), to: p(3, 1))],
            sectionCountsBefore: [2, 1, 2, 1], sectionCountsAfter: [1, 1, 2, 2])
        let result = try ListSimulator.apply(batch, to: old, expecting: new)
        #expect(result.map(\.section) == ["C", "X", "A", "D"])
        #expect(result.map(\.rows) == new.map(\.rows))
    }

    @Test func emptiedSectionIsDeletedAndItsRowInsertedElsewhere() throws {
        // Seed 002: two sections of one row; the row of the first dragged into the second.
        let old: SimulatorCase.Sections = [(section: "Home", rows: ["a"]), (section: "Work", rows: ["b"])]
        let new: SimulatorCase.Sections = [(section: "Work", rows: ["b", "a"])]
        let batch = Changeset(
            sectionDeletes: [0], rowInserts: [p(0, 1)], sectionCountsBefore: [1, 1], sectionCountsAfter: [2])
        #expect(try ListSimulator.apply(batch, to: old, expecting: new).map(\.section) == ["Work"])
    }

    @Test func sectionInsertsAndDeletesAlone() {
        let old = [["a"], ["b"], ["c"]]
        let new = [["n"], ["b"], ["m"], ["o"]]
        expectValid(
            Case.batch(old, new) {
                $0.sectionDeletes = [0, 2]
                $0.sectionInserts = [0, 2, 3]
            }, old, new)
    }

    @Test func sectionMovesWithRowsLeavingTheMovedSection() {
        let old = [["a"], ["b", "c"], ["d"]]
        let new = [["b"], ["a"], ["d", "c"]]
        expectValid(
            Case.batch(old, new) {
                $0.sectionMoves = [.init(from: 1, to: 0)]
                $0.rowMoves = [.init(from: p(1, 1), to: p(2, 1))]
            }, old, new)
    }
}
