import FetchKit
import FetchKitTesting
import Testing

/// Helpers shared by the ListSimulator suites.
enum SimulatorCase {
    typealias Sections = [(section: String, rows: [String])]

    /// `RowPath(section:row:)`, short.
    static func path(_ section: Int, _ row: Int) -> RowPath {
        RowPath(section: section, row: row)
    }

    /// A changeset between two snapshots, with their counts filled in, edited by `edit`.
    static func batch<Row>(
        _ old: [[Row]], _ new: [[Row]], _ edit: (inout Changeset) -> Void = { _ in }
    ) -> Changeset {
        var changeset = Changeset(
            sectionCountsBefore: old.map(\.count), sectionCountsAfter: new.map(\.count))
        edit(&changeset)
        return changeset
    }

    /// The violation `apply` throws for unnamed sections of strings, or `nil` when it accepts the batch.
    static func violation(_ changeset: Changeset, _ old: [[String]], _ new: [[String]]) -> ListSimulator.Violation? {
        do {
            _ = try ListSimulator.apply(changeset, to: old, expecting: new)
            return nil
        } catch {
            return error as? ListSimulator.Violation
        }
    }

    /// The violation `apply` throws for named sections, or `nil` when it accepts the batch.
    static func violation(_ changeset: Changeset, _ old: Sections, _ new: Sections) -> ListSimulator.Violation? {
        do {
            _ = try ListSimulator.apply(changeset, to: old, expecting: new)
            return nil
        } catch {
            return error as? ListSimulator.Violation
        }
    }
}

@Suite struct ListSimulatorViolationTests {
    typealias Case = SimulatorCase
    let p = SimulatorCase.path

    @Test func declaredCountsMustMatchTheSnapshots() {
        let old = [["a", "b", "c"]]
        let before = Changeset(sectionCountsBefore: [2], sectionCountsAfter: [3])
        let violation = Case.violation(before, old, old)
        #expect(violation == .countsMismatch(.before, declared: [2], actual: [3]))
        #expect(violation?.description.contains("sectionCountsBefore is [2]") == true)
        let after = Changeset(sectionCountsBefore: [3], sectionCountsAfter: [3, 0])
        #expect(Case.violation(after, old, old) == .countsMismatch(.after, declared: [3, 0], actual: [3]))
    }

    @Test func sectionIndexesOutOfRange() {
        let old = [["a"], ["b"]]
        let delete = Case.batch(old, old) { $0.sectionDeletes = [2] }
        let violation = Case.violation(delete, old, old)
        #expect(violation == .sectionOutOfRange(.delete, section: 2, sectionCount: 2))
        #expect(
            violation?.description == "attempt to delete section 2, but there are only 2 sections before the update")
        let negative = Case.batch(old, old) { $0.sectionDeletes = [-1] }
        #expect(Case.violation(negative, old, old) == .sectionOutOfRange(.delete, section: -1, sectionCount: 2))
        let insert = Case.batch(old, old) { $0.sectionInserts = [2] }
        let inserted = Case.violation(insert, old, old)
        #expect(inserted == .sectionOutOfRange(.insert, section: 2, sectionCount: 2))
        #expect(inserted?.description.contains("sections after the update") == true)
        let source = Case.batch(old, old) { $0.sectionMoves = [.init(from: 5, to: 0)] }
        #expect(Case.violation(source, old, old) == .sectionOutOfRange(.moveSource, section: 5, sectionCount: 2))
        let destination = Case.batch(old, old) { $0.sectionMoves = [.init(from: 0, to: 3)] }
        #expect(
            Case.violation(destination, old, old) == .sectionOutOfRange(.moveDestination, section: 3, sectionCount: 2))
    }

    @Test func rowPathsOutOfRange() throws {
        let old = [["a", "b", "c"]]
        let delete = Case.batch(old, old) { $0.rowDeletes = [p(0, 3)] }
        let deleted = try #require(Case.violation(delete, old, old))
        #expect(deleted == .rowOutOfRange(.delete, p(0, 3), sectionCount: 1, rowCount: 3))
        #expect(
            deleted.description
                == "attempt to delete row 3 from section 0 which only contains 3 rows before the update")

        let new = [["a", "b", "c", "d"]]
        let insert = Case.batch(old, new) { $0.rowInserts = [p(0, 4)] }
        let inserted = try #require(Case.violation(insert, old, new))
        #expect(inserted == .rowOutOfRange(.insert, p(0, 4), sectionCount: 1, rowCount: 4))
        #expect(
            inserted.description
                == "attempt to insert row 4 into section 0, but there are only 4 rows in section 0 after the update")

        let noSection = Case.batch(old, old) { $0.rowDeletes = [p(2, 0)] }
        let missing = try #require(Case.violation(noSection, old, old))
        #expect(missing == .rowOutOfRange(.delete, p(2, 0), sectionCount: 1, rowCount: nil))
        #expect(missing.description.contains("section 2, but there are only 1 sections before the update"))

        let moveFrom = Case.batch(old, old) { $0.rowMoves = [.init(from: p(0, -1), to: p(0, 0))] }
        #expect(
            Case.violation(moveFrom, old, old) == .rowOutOfRange(.moveSource, p(0, -1), sectionCount: 1, rowCount: 3))
        let moveTo = Case.batch(old, old) { $0.rowMoves = [.init(from: p(0, 0), to: p(1, 0))] }
        #expect(
            Case.violation(moveTo, old, old)
                == .rowOutOfRange(.moveDestination, p(1, 0), sectionCount: 1, rowCount: nil))
        let updateFrom = Case.batch(old, old) { $0.rowUpdates = [.init(from: p(0, 5), to: p(0, 0))] }
        #expect(
            Case.violation(updateFrom, old, old)
                == .rowOutOfRange(.updateSource, p(0, 5), sectionCount: 1, rowCount: 3))
        let updateTo = Case.batch(old, old) { $0.rowUpdates = [.init(from: p(0, 0), to: p(0, 9))] }
        let wrongTo = try #require(Case.violation(updateTo, old, old))
        #expect(wrongTo == .rowOutOfRange(.updateDestination, p(0, 9), sectionCount: 1, rowCount: 3))
        #expect(wrongTo.description.contains("row 9 of section 0"))
    }

    @Test func sectionConflicts() {
        let abc = [["a"], ["b"], ["c"]]
        let twice = Case.batch(abc, [["c"]]) { $0.sectionDeletes = [0, 0] }
        let deletedTwice = Case.violation(twice, abc, [["c"]])
        #expect(deletedTwice == .sectionConflict(.deletedTwice, section: 0))
        #expect(deletedTwice?.description == "Invalid update: attempt to delete the same section 0 twice")

        let insertTwice = Case.batch([["a"]], abc) { $0.sectionInserts = [1, 1] }
        #expect(Case.violation(insertTwice, [["a"]], abc) == .sectionConflict(.insertedTwice, section: 1))

        let ab = [["a"], ["b"]]
        let ba = [["b"], ["a"]]
        let fromTwice = Case.batch(ab, ba) { $0.sectionMoves = [.init(from: 0, to: 1), .init(from: 0, to: 0)] }
        let movedTwiceFrom = Case.violation(fromTwice, ab, ba)
        #expect(movedTwiceFrom == .sectionConflict(.movedTwiceFrom, section: 0))
        #expect(movedTwiceFrom?.description.contains("multiple moves from the same section 0") == true)
        let toTwice = Case.batch(ab, ba) { $0.sectionMoves = [.init(from: 0, to: 1), .init(from: 1, to: 1)] }
        #expect(Case.violation(toTwice, ab, ba) == .sectionConflict(.movedTwiceTo, section: 1))

        let bxa = [["b"], ["x"], ["a"]]
        let insertAtMove = Case.batch(ab, bxa) {
            $0.sectionInserts = [1]
            $0.sectionMoves = [.init(from: 0, to: 1)]
        }
        let atMove = Case.violation(insertAtMove, ab, bxa)
        #expect(atMove == .sectionConflict(.insertedAtMoveDestination, section: 1))
        #expect(atMove?.description.contains("an insert and a move to the same section 1") == true)

        let moveDeleted = Case.batch(ab, [["b"]]) {
            $0.sectionDeletes = [0]
            $0.sectionMoves = [.init(from: 0, to: 0)]
        }
        #expect(Case.violation(moveDeleted, ab, [["b"]]) == .sectionConflict(.deletedAndMoved, section: 0))
    }

    @Test func rowConflicts() throws {
        let old = [["a", "b", "c"]]
        let cases: [(Changeset, [[String]], ListSimulator.Violation, String)] = [
            (
                Case.batch(old, [["c"]]) { $0.rowDeletes = [p(0, 0), p(0, 0)] }, [["c"]],
                .rowConflict(.deletedTwice, p(0, 0)), "delete the same index path [0, 0] twice"
            ),
            (
                Case.batch(old, [["a", "x", "x", "b", "c"]]) { $0.rowInserts = [p(0, 1), p(0, 1)] },
                [["a", "x", "x", "b", "c"]], .rowConflict(.insertedTwice, p(0, 1)), "insert the same index path [0, 1]"
            ),
            (
                Case.batch(old, old) {
                    $0.rowMoves = [.init(from: p(0, 0), to: p(0, 1)), .init(from: p(0, 0), to: p(0, 2))]
                }, old, .rowConflict(.movedTwiceFrom, p(0, 0)), "multiple moves from the same index path [0, 0]"
            ),
            (
                Case.batch(old, old) {
                    $0.rowMoves = [.init(from: p(0, 0), to: p(0, 2)), .init(from: p(0, 1), to: p(0, 2))]
                }, old, .rowConflict(.movedTwiceTo, p(0, 2)), "multiple moves to the same index path [0, 2]"
            ),
            (
                Case.batch(old, [["b", "c", "x", "a"]]) {
                    $0.rowInserts = [p(0, 2)]
                    $0.rowMoves = [.init(from: p(0, 0), to: p(0, 2))]
                }, [["b", "c", "x", "a"]], .rowConflict(.insertedAtMoveDestination, p(0, 2)),
                "an insert and a move to the same index path [0, 2]"
            ),
            (
                Case.batch(old, [["b", "c"]]) {
                    $0.rowDeletes = [p(0, 1)]
                    $0.rowMoves = [.init(from: p(0, 1), to: p(0, 0))]
                }, [["b", "c"]], .rowConflict(.deletedAndMoved, p(0, 1)),
                "a delete and a move from the same index path [0, 1]"
            ),
            (
                Case.batch(old, [["a", "c"]]) {
                    $0.rowDeletes = [p(0, 1)]
                    $0.rowUpdates = [.init(from: p(0, 1), to: p(0, 1))]
                }, [["a", "c"]], .rowConflict(.deletedAndUpdated, p(0, 1)),
                "attempt to delete and reload the same index path [0, 1]"
            ),
            (
                Case.batch(old, [["b", "c", "a"]]) {
                    $0.rowMoves = [.init(from: p(0, 0), to: p(0, 2))]
                    $0.rowUpdates = [.init(from: p(0, 0), to: p(0, 2))]
                }, [["b", "c", "a"]], .rowConflict(.movedAndUpdated, p(0, 0)),
                "move and reload the same index path [0, 0]"
            ),
            (
                Case.batch(old, old) {
                    $0.rowUpdates = [.init(from: p(0, 2), to: p(0, 2)), .init(from: p(0, 2), to: p(0, 2))]
                }, old, .rowConflict(.updatedTwice, p(0, 2)), "reload the same index path [0, 2] twice"
            )
        ]
        for (changeset, new, expected, text) in cases {
            let violation = try #require(Case.violation(changeset, old, new), "\(expected)")
            #expect(violation == expected)
            #expect(violation.description.contains(text), "\(violation)")
            #expect(violation.description.hasPrefix("Invalid update: attempt to"))
        }
    }

    @Test func invalidNumberOfSections() {
        let old = [["a"], ["b"]]
        let new = [["a"], ["b"], ["c"]]
        let violation = Case.violation(Case.batch(old, new), old, new)
        #expect(violation == .invalidSectionCount(before: 2, after: 3, inserted: 0, deleted: 0))
        #expect(
            violation?.description
                == "Invalid update: invalid number of sections. The number of sections contained in the table view "
                + "after the update (3) must be equal to the number of sections contained in the table view before "
                + "the update (2), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).")
    }

    @Test func invalidNumberOfRowsReadsLikeUIKit() {
        let old = [["x"], ["a", "b"]]
        let new = [["x"], ["a", "b", "c"]]
        let violation = Case.violation(Case.batch(old, new), old, new)
        #expect(
            violation
                == .invalidRowCount(
                    section: 1, oldSection: 1, before: 2, after: 3, inserted: 0, deleted: 0, movedIn: 0, movedOut: 0))
        #expect(
            violation?.description
                == "Invalid update: invalid number of rows in section 1. The number of rows contained in an existing "
                + "section after the update (3) must be equal to the number of rows contained in that section before "
                + "the update (2), plus or minus the number of rows inserted or deleted from that section (0 inserted, "
                + "0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 "
                + "moved out).")
    }

    @Test func invalidNumberOfRowsCountsMovesAndShiftedSections() {
        let old = [["a", "b"], ["c"]]
        let new = [["b"], ["a", "c", "d"]]
        let missingInsert = Case.batch(old, new) { $0.rowMoves = [.init(from: p(0, 0), to: p(1, 0))] }
        let violation = Case.violation(missingInsert, old, new)
        #expect(
            violation
                == .invalidRowCount(
                    section: 1, oldSection: 1, before: 1, after: 3, inserted: 0, deleted: 0, movedIn: 1, movedOut: 0))
        #expect(violation?.description.contains("(1 moved in, 0 moved out)") == true)

        let shiftedOld = [["x"], ["a", "b"]]
        let shiftedNew = [["a", "b", "c"]]
        let shifted = Case.batch(shiftedOld, shiftedNew) { $0.sectionDeletes = [0] }
        let shiftedViolation = Case.violation(shifted, shiftedOld, shiftedNew)
        #expect(
            shiftedViolation
                == .invalidRowCount(
                    section: 0, oldSection: 1, before: 2, after: 3, inserted: 0, deleted: 0, movedIn: 0, movedOut: 0))
        #expect(shiftedViolation?.description.contains("rows in section 0.") == true)
        #expect(shiftedViolation?.description.hasSuffix("Before the update it was section 1.") == true)
    }

    @Test func rowOperationsInsideDeletedSections() throws {
        let old = [["a"], ["b"]]
        let delete = Case.batch(old, [["b"]]) {
            $0.sectionDeletes = [0]
            $0.rowDeletes = [p(0, 0)]
        }
        #expect(Case.violation(delete, old, [["b"]]) == .rowInChangedSection(.delete, p(0, 0), .deleted))

        // Seed 002's trap: the row dragged out of a section that empties and is deleted in the same batch.
        let merged = [["a", "b"]]
        let move = Case.batch(old, merged) {
            $0.sectionDeletes = [0]
            $0.rowMoves = [.init(from: p(0, 0), to: p(0, 0))]
        }
        let moved = try #require(Case.violation(move, old, merged))
        #expect(moved == .rowInChangedSection(.moveSource, p(0, 0), .deleted))
        #expect(
            moved.description == "attempt to move row 0 from section 0, but section 0 is deleted in the same update")

        let update = Case.batch(old, [["b"]]) {
            $0.sectionDeletes = [0]
            $0.rowUpdates = [.init(from: p(0, 0), to: p(0, 0))]
        }
        #expect(Case.violation(update, old, [["b"]]) == .rowInChangedSection(.updateSource, p(0, 0), .deleted))
    }

    @Test func rowOperationsInsideInsertedSections() throws {
        let grown = [["a"], ["b"]]
        let insert = Case.batch([["a"]], grown) {
            $0.sectionInserts = [1]
            $0.rowInserts = [p(1, 0)]
        }
        let inserted = try #require(Case.violation(insert, [["a"]], grown))
        #expect(inserted == .rowInChangedSection(.insert, p(1, 0), .inserted))
        #expect(inserted.description.contains("section 1 is inserted in the same update"))

        let split = [["a"], ["b"]]
        let move = Case.batch([["a", "b"]], split) {
            $0.sectionInserts = [1]
            $0.rowMoves = [.init(from: p(0, 1), to: p(1, 0))]
        }
        #expect(
            Case.violation(move, [["a", "b"]], split) == .rowInChangedSection(.moveDestination, p(1, 0), .inserted))

        let update = Case.batch([["a"]], [["x"], ["a"]]) {
            $0.sectionInserts = [0]
            $0.rowUpdates = [.init(from: p(0, 0), to: p(0, 0))]
        }
        #expect(
            Case.violation(update, [["a"]], [["x"], ["a"]])
                == .rowInChangedSection(.updateDestination, p(0, 0), .inserted))
    }

    @Test func rowInsertsAndMoveDestinationsInsideMovedSections() throws {
        let old = [["a"], ["b"]]
        let new = [["b", "c"], ["a"]]
        let insert = Case.batch(old, new) {
            $0.sectionMoves = [.init(from: 1, to: 0)]
            $0.rowInserts = [p(0, 1)]
        }
        let inserted = try #require(Case.violation(insert, old, new))
        #expect(inserted == .rowInChangedSection(.insert, p(0, 1), .moved))
        #expect(inserted.description.contains("section 0 is moved in the same update"))
        #expect(inserted.description.contains("IGListKit"))

        let before = [["a", "x"], ["b"]]
        let after = [["b", "a"], ["x"]]
        let move = Case.batch(before, after) {
            $0.sectionMoves = [.init(from: 1, to: 0)]
            $0.rowMoves = [.init(from: p(0, 0), to: p(0, 1))]
        }
        #expect(Case.violation(move, before, after) == .rowInChangedSection(.moveDestination, p(0, 1), .moved))
    }

    @Test func noOpSectionMoves() {
        let ab = [["a"], ["b"]]
        let inPlace = Case.batch(ab, ab) { $0.sectionMoves = [.init(from: 0, to: 0)] }
        let violation = Case.violation(inPlace, ab, ab)
        #expect(violation == .noOpSectionMove(.init(from: 0, to: 0)))
        #expect(violation?.description.contains("FetchKit batch contract: the move of section 0 to section 0") == true)
        // Section 1 becomes section 0 anyway once section 0 is deleted.
        let abc = [["a"], ["b"], ["c"]]
        let shifted = Case.batch(abc, [["b"], ["c"]]) {
            $0.sectionDeletes = [0]
            $0.sectionMoves = [.init(from: 1, to: 0)]
        }
        #expect(Case.violation(shifted, abc, [["b"], ["c"]]) == .noOpSectionMove(.init(from: 1, to: 0)))
    }

    @Test func noOpRowMoves() throws {
        // NSFetchedResultsController's update reported as move(x -> x).
        let old = [["a", "b"]]
        let inPlace = Case.batch(old, old) { $0.rowMoves = [.init(from: p(0, 1), to: p(0, 1), isUpdated: true)] }
        let violation = try #require(Case.violation(inPlace, old, old))
        #expect(violation == .noOpRowMove(.init(from: p(0, 1), to: p(0, 1), isUpdated: true)))
        #expect(violation.description.contains("the move [0, 1] -> [0, 1] changes nothing"))

        // A row that only shifts because a row before it went is not a move.
        let shiftedNew = [["b", "c"]]
        let shifted = Case.batch([["a", "b", "c"]], shiftedNew) {
            $0.rowDeletes = [p(0, 0)]
            $0.rowMoves = [.init(from: p(0, 1), to: p(0, 0))]
        }
        #expect(
            Case.violation(shifted, [["a", "b", "c"]], shiftedNew) == .noOpRowMove(.init(from: p(0, 1), to: p(0, 0))))

        // Nor one whose section only changes index.
        let sectionShift = Case.batch([["x"], ["a", "b"]], [["a", "b"]]) {
            $0.sectionDeletes = [0]
            $0.rowMoves = [.init(from: p(1, 0), to: p(0, 0))]
        }
        #expect(
            Case.violation(sectionShift, [["x"], ["a", "b"]], [["a", "b"]])
                == .noOpRowMove(.init(from: p(1, 0), to: p(0, 0))))
    }

    @Test func updateIndexPathBug() throws {
        // A row inserted before the updated one: the update's new path is one further down.
        let old = [["a", "b"]]
        let new = [["x", "a", "b"]]
        let wrong = Case.batch(old, new) {
            $0.rowInserts = [p(0, 0)]
            $0.rowUpdates = [.init(from: p(0, 0), to: p(0, 0))]
        }
        let violation = try #require(Case.violation(wrong, old, new))
        #expect(violation == .misplacedUpdate(.init(from: p(0, 0), to: p(0, 0)), landsAt: p(0, 1)))
        #expect(violation.description.contains("the row at old [0, 0] ends at [0, 1]"))

        let otherSection = Case.batch([["a"], ["b"]], [["a"], ["b"]]) {
            $0.rowUpdates = [.init(from: p(0, 0), to: p(1, 0))]
        }
        #expect(
            Case.violation(otherSection, [["a"], ["b"]], [["a"], ["b"]])
                == .misplacedUpdate(.init(from: p(0, 0), to: p(1, 0)), landsAt: p(0, 0)))
    }

    @Test func updatesMustPairTheSameRow() throws {
        let replaced = Case.batch([["a", "b"]], [["a", "c"]]) { $0.rowUpdates = [.init(from: p(0, 1), to: p(0, 1))] }
        let violation = try #require(Case.violation(replaced, [["a", "b"]], [["a", "c"]]))
        #expect(violation == .identityMismatch(from: p(0, 1), to: p(0, 1), oldRow: "\"b\"", newRow: "\"c\""))
        #expect(violation.description.contains("\"b\" is not \"c\""))

        let move = Case.batch([["a", "b"]], [["c", "a"]]) {
            $0.rowMoves = [.init(from: p(0, 1), to: p(0, 0), isUpdated: true)]
        }
        #expect(
            Case.violation(move, [["a", "b"]], [["c", "a"]])
                == .identityMismatch(from: p(0, 1), to: p(0, 0), oldRow: "\"b\"", newRow: "\"c\""))

        struct Item: Equatable {
            var id: Int
            var title: String
        }
        let old = [[Item(id: 1, title: "one"), Item(id: 2, title: "two")]]
        let new = [[Item(id: 1, title: "one"), Item(id: 3, title: "three")]]
        let batch = Case.batch(old, new) { $0.rowUpdates = [.init(from: p(0, 1), to: p(0, 1))] }
        #expect(throws: ListSimulator.Violation.self) {
            try ListSimulator.apply(batch, to: old, expecting: new, identifiedBy: \.id)
        }
    }

    @Test func resultMismatches() throws {
        let reordered = Case.violation(Case.batch([["a", "b"]], [["b", "a"]]), [["a", "b"]], [["b", "a"]])
        #expect(
            reordered
                == .resultMismatch("section 0 differs from row 0: expected [\"b\", \"a\"], got [\"a\", \"b\"]"))

        let renamed = Case.violation(
            Changeset(sectionCountsBefore: [1], sectionCountsAfter: [1]),
            [(section: "A", rows: ["a"])], [(section: "B", rows: ["a"])])
        #expect(renamed?.description.contains("section 0 is \"A\" instead of \"B\"") == true)

        struct Item: Equatable {
            var id: Int
            var title: String
        }
        let forgotten = Changeset(sectionCountsBefore: [1], sectionCountsAfter: [1])
        do {
            _ = try ListSimulator.apply(
                forgotten, to: [[Item(id: 1, title: "old")]], expecting: [[Item(id: 1, title: "new")]],
                identifiedBy: \.id)
            Issue.record("a changed row that is not updated must not pass")
        } catch let violation as ListSimulator.Violation {
            guard case .resultMismatch(let text) = violation else {
                Issue.record("unexpected \(violation)")
                return
            }
            #expect(text.contains("title: \"new\""))
        }
    }

    @Test func longRowsShowAWindowAroundTheDifference() throws {
        let old = [(0..<40).map { "r\($0)" }]
        var newRows = old[0]
        newRows.swapAt(20, 21)
        let violation = try #require(Case.violation(Case.batch(old, [newRows]), old, [newRows]))
        let text = violation.description
        #expect(text.contains("differs from row 20"))
        #expect(text.contains("… \"r16\""))
        #expect(text.contains("\"r21\", \"r20\""))
        #expect(text.contains("(40 rows)"))
        #expect(!text.contains("\"r2\","))
    }

    @Test func orderOfDeletesAndInserts() {
        let old = [["a", "b", "c"]]
        let deletes = Case.batch(old, [["b"]]) { $0.rowDeletes = [p(0, 2), p(0, 0)] }
        let violation = Case.violation(deletes, old, [["b"]])
        #expect(violation == .notAscending(field: "rowDeletes", previous: "[0, 2]", next: "[0, 0]"))
        #expect(violation?.description.contains("rowDeletes must be ascending") == true)
        let sections = Case.batch([["a"], ["b"], ["c"]], [["b"]]) { $0.sectionDeletes = [2, 0] }
        #expect(
            Case.violation(sections, [["a"], ["b"], ["c"]], [["b"]])
                == .notAscending(field: "sectionDeletes", previous: "2", next: "0"))
    }
}
