import FetchKit
import FetchKitTesting
import Testing

@Suite struct ListSimulatorStagedTests {
    typealias Item = ListSimulatorPropertyTests.Item
    typealias Sections = SimulatorCase.Sections
    let p = SimulatorCase.path

    /// Every kind of stage: an update, a row delete, a section delete, insert and move, a row insert and a move.
    let old: Sections = [
        (section: "A", rows: ["a", "b"]), (section: "B", rows: ["c"]),
        (section: "C", rows: ["d", "e"]), (section: "D", rows: ["f"])
    ]
    let new: Sections = [
        (section: "C", rows: ["d"]), (section: "X", rows: ["x"]),
        (section: "A", rows: ["b", "g"]), (section: "D", rows: ["f", "e"])
    ]
    var whole: Changeset {
        Changeset(
            sectionDeletes: [1], sectionInserts: [1], sectionMoves: [.init(from: 2, to: 0)],
            rowDeletes: [p(0, 0)], rowInserts: [p(2, 1)], rowMoves: [.init(from: p(2, 1), to: p(3, 1))],
            rowUpdates: [.init(from: p(3, 0), to: p(3, 0))],
            sectionCountsBefore: [2, 1, 2, 1], sectionCountsAfter: [1, 1, 2, 2])
    }

    @Test func everyStageAppliesToTheSnapshotTheLastOneLeft() throws {
        let staged = try whole.staged()
        #expect(staged.stages.map(\.kind) == StagedChangeset.Stage.Kind.allCases)
        let snapshots = try ListSimulator.applyStaged(staged, to: old, expecting: new)
        try #require(snapshots.count == 4)
        #expect(snapshots[0].map(\.section) == ["A", "B", "C", "D"])
        #expect(snapshots[1].map(\.section) == ["A", "C", "D"])
        #expect(snapshots[1].map(\.rows) == [["b"], ["d", "e"], ["f"]])
        #expect(snapshots[2].map(\.section) == ["C", "X", "A", "D"])
        #expect(snapshots[2].map(\.rows) == [["d", "e"], ["x"], ["b"], ["f"]])
        #expect(snapshots[3].map(\.rows) == new.map(\.rows))
    }

    @Test func stagesOutOfOrderMissingOrMixed() throws {
        let staged = try whole.staged()

        var reordered = staged
        reordered.stages.swapAt(1, 2)
        let swapped = violation(reordered)
        guard case .invalidStages(let text) = swapped else {
            Issue.record("expected invalidStages, got \(String(describing: swapped))")
            return
        }
        #expect(text.contains("the stages are [updates, sectionInsertsAndMoves, deletes, rowInsertsAndMoves]"))

        var missing = staged
        missing.stages.removeFirst()
        #expect(violation(missing)?.description.contains("the batch needs [updates, deletes,") == true)

        var mixed = staged
        mixed.stages[1].changeset.rowInserts = [p(1, 0)]
        #expect(violation(mixed) == .invalidStages("the deletes stage holds row inserts"))
    }

    @Test func aBrokenStageIsNamed() throws {
        var staged = try whole.staged()
        let last = staged.stages.count - 1
        staged.stages[last].changeset.rowMoves[0].to = p(3, 0)
        let broken = try #require(violation(staged))
        guard case .inStage(.rowInsertsAndMoves, let inner) = broken else {
            Issue.record("expected a violation in the rowInsertsAndMoves stage, got \(broken)")
            return
        }
        guard case .resultMismatch(let text) = inner else {
            Issue.record("expected the stage's result to differ, got \(inner)")
            return
        }
        #expect(text.hasPrefix("section 3 (\"D\") differs from row 0"))
        #expect(broken.description.hasPrefix("in the rowInsertsAndMoves stage: Invalid update: "))
    }

    @Test func theWholeBatchIsCheckedFirst() throws {
        var staged = try whole.staged()
        staged.changeset.rowDeletes = []
        let result = violation(staged)
        #expect(
            result
                == .invalidRowCount(
                    section: 2, oldSection: 0, before: 2, after: 2, inserted: 1, deleted: 0, movedIn: 0, movedOut: 0))
    }

    @Test func randomBatchesStageCleanlyAndAgreeWithFetchKitsSnapshots() throws {
        for seed in UInt64(0)..<1_500 {
            var random = ListSimulatorRandom(seed: seed)
            let old = ListSimulatorPropertyTests.randomSnapshot(&random)
            let new = ListSimulatorPropertyTests.evolve(old, &random)
            let changeset = ListSimulatorReference(old: old, new: new).changeset
            let staged = try changeset.staged()
            let snapshots: [ListSimulatorPropertyTests.Snapshot]
            do {
                snapshots = try ListSimulator.applyStaged(staged, to: old, expecting: new, identifiedBy: \.id)
            } catch {
                Issue.record("seed \(seed): \(error)\n\(changeset)")
                continue
            }
            let fetchKits = try staged.snapshots(from: old, to: new)
            #expect(snapshots.count == fetchKits.count, "seed \(seed)")
            for (mine, theirs) in zip(snapshots, fetchKits) {
                #expect(mine.map(\.section) == theirs.map(\.section), "seed \(seed)")
                #expect(mine.map(\.rows) == theirs.map(\.rows), "seed \(seed)")
            }
            if let last = snapshots.last {
                #expect(last.map(\.rows) == new.map(\.rows), "seed \(seed)")
            } else {
                #expect(changeset.isEmpty, "seed \(seed)")
            }
        }
    }

    private func violation(_ staged: StagedChangeset) -> ListSimulator.Violation? {
        do {
            _ = try ListSimulator.applyStaged(staged, to: old, expecting: new)
            return nil
        } catch {
            return error as? ListSimulator.Violation
        }
    }
}
