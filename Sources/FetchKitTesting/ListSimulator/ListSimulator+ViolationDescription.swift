import FetchKit

extension ListSimulator.Violation {
    public var description: String {
        switch self {
        case .countsMismatch(let counts, let declared, let actual):
            let snapshot = counts == .before ? "old" : "new"
            return "FetchKit batch contract: sectionCounts\(counts == .before ? "Before" : "After") is \(declared) "
                + "but the \(snapshot) snapshot's sections hold \(actual) rows"
        case .notAscending(let field, let previous, let next):
            return "FetchKit batch contract: \(field) must be ascending without repeats, "
                + "but \(next) follows \(previous)"
        case .sectionOutOfRange(let operation, let section, let sectionCount):
            return Self.sectionPhrase(operation, section) + Self.onlySections(sectionCount, operation)
        case .rowOutOfRange(let operation, let path, let sectionCount, let rowCount):
            guard let rowCount else {
                return Self.rowPhrase(operation, path) + Self.onlySections(sectionCount, operation)
            }
            if operation.usesOldIndexes {
                return Self.rowPhrase(operation, path) + " which only contains \(rowCount) rows before the update"
            }
            return Self.rowPhrase(operation, path)
                + ", but there are only \(rowCount) rows in section \(path.section) after the update"
        case .sectionConflict(let conflict, let section):
            return "Invalid update: " + Self.conflictPhrase(conflict, "section \(section)")
        case .rowConflict(let conflict, let path):
            return "Invalid update: " + Self.conflictPhrase(conflict, "index path \(path)")
        case .invalidSectionCount(let before, let after, let inserted, let deleted):
            return "Invalid update: invalid number of sections. The number of sections contained in the table view "
                + "after the update (\(after)) must be equal to the number of sections contained in the table view "
                + "before the update (\(before)), plus or minus the number of sections inserted or deleted "
                + "(\(inserted) inserted, \(deleted) deleted)."
        case .invalidRowCount(
            let section, let oldSection, let before, let after, let inserted, let deleted,
            let movedIn, let movedOut):
            let was = oldSection == section ? "" : " Before the update it was section \(oldSection)."
            return "Invalid update: invalid number of rows in section \(section). The number of rows contained in "
                + "an existing section after the update (\(after)) must be equal to the number of rows contained "
                + "in that section before the update (\(before)), plus or minus the number of rows inserted or "
                + "deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the "
                + "number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
                + was
        case .rowInChangedSection(let operation, let path, let change):
            let moved =
                change == .moved
                ? " (FetchKit forbids row inserts and move destinations inside a moved section, as IGListKit does)"
                : ""
            return Self.rowPhrase(operation, path)
                + ", but section \(path.section) is \(change.rawValue) in the same update" + moved
        case .noOpSectionMove(let move):
            return "FetchKit batch contract: the move of section \(move.from) to section \(move.to) changes "
                + "nothing (without it the section lands at \(move.to) anyway); no-op moves are never emitted"
        case .noOpRowMove(let move):
            return "FetchKit batch contract: the move \(move.from) -> \(move.to) changes nothing (without it the "
                + "row lands at \(move.to) anyway); no-op moves are never emitted, a changed row that did not "
                + "move is an update"
        case .misplacedUpdate(let update, let landsAt):
            return "FetchKit batch contract: the update \(update.from) -> \(update.to) names the wrong new path: "
                + "the row at old \(update.from) ends at \(landsAt) (a cell is found by the old path and its "
                + "object read at the new one)"
        case .identityMismatch(let from, let to, let oldRow, let newRow):
            return "FetchKit batch contract: the batch updates old \(from) into new \(to), but \(oldRow) is not "
                + "\(newRow) (the reloaded cell would show another row)"
        case .invalidStages(let problem):
            return "FetchKit staged changes: \(problem)"
        case .inStage(let kind, let violation):
            return "in the \(kind.rawValue) stage: \(violation)"
        case .resultMismatch(let difference):
            return "Invalid update: the batch applied to the old snapshot does not give the new one: \(difference)"
        }
    }

    private static func rowPhrase(_ operation: Operation, _ path: RowPath) -> String {
        let (row, section) = (path.row, path.section)
        switch operation {
        case .delete: return "attempt to delete row \(row) from section \(section)"
        case .insert: return "attempt to insert row \(row) into section \(section)"
        case .moveSource: return "attempt to move row \(row) from section \(section)"
        case .moveDestination: return "attempt to move a row to row \(row) of section \(section)"
        case .updateSource: return "attempt to reload row \(row) from section \(section)"
        case .updateDestination: return "attempt to read the updated row at row \(row) of section \(section)"
        }
    }

    private static func sectionPhrase(_ operation: Operation, _ section: Int) -> String {
        switch operation {
        case .delete: "attempt to delete section \(section)"
        case .insert: "attempt to insert section \(section)"
        case .moveSource: "attempt to move section \(section)"
        case .moveDestination: "attempt to move a section to section \(section)"
        case .updateSource: "attempt to reload section \(section)"
        case .updateDestination: "attempt to read the updated section \(section)"
        }
    }

    private static func onlySections(_ count: Int, _ operation: Operation) -> String {
        ", but there are only \(count) sections \(operation.usesOldIndexes ? "before" : "after") the update"
    }

    private static func conflictPhrase(_ conflict: Conflict, _ target: String) -> String {
        switch conflict {
        case .deletedTwice: "attempt to delete the same \(target) twice"
        case .insertedTwice: "attempt to insert the same \(target) twice"
        case .movedTwiceFrom: "attempt to perform multiple moves from the same \(target)"
        case .movedTwiceTo: "attempt to perform multiple moves to the same \(target)"
        case .insertedAtMoveDestination: "attempt to perform an insert and a move to the same \(target)"
        case .deletedAndMoved: "attempt to perform a delete and a move from the same \(target)"
        case .deletedAndUpdated: "attempt to delete and reload the same \(target)"
        case .movedAndUpdated:
            "attempt to move and reload the same \(target) (a moved row that changed is one move with isUpdated)"
        case .updatedTwice: "attempt to reload the same \(target) twice"
        }
    }
}
