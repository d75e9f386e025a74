import FetchKit

extension ListSimulator {
    /// A batch UITableView would reject, or one that breaks FetchKit's batch contract.
    ///
    /// The ``description`` is modelled on the text of UIKit's `NSInternalInconsistencyException`; rules that are
    /// FetchKit's own (declared counts, ascending order, no-op moves, update paths) start with
    /// "FetchKit batch contract:".
    public enum Violation: Error, Sendable, Hashable, CustomStringConvertible {
        /// The operation an index belongs to; it decides the index space (old or new) the index is read in.
        public enum Operation: String, Sendable, Hashable {
            /// A delete (old index).
            case delete
            /// An insert (new index).
            case insert
            /// The source of a move (old index).
            case moveSource
            /// The destination of a move (new index).
            case moveDestination
            /// The `from` of an update (old index).
            case updateSource
            /// The `to` of an update (new index).
            case updateDestination

            /// Whether the index is read before the update (`true`) or after it.
            public var usesOldIndexes: Bool {
                switch self {
                case .delete, .moveSource, .updateSource: true
                case .insert, .moveDestination, .updateDestination: false
                }
            }
        }

        /// Two operations of one batch that claim the same index.
        public enum Conflict: String, Sendable, Hashable {
            /// The same index deleted twice.
            case deletedTwice
            /// The same index inserted twice.
            case insertedTwice
            /// Two moves from one source.
            case movedTwiceFrom
            /// Two moves to one destination.
            case movedTwiceTo
            /// An insert at the destination of a move.
            case insertedAtMoveDestination
            /// A delete and a move of the same old index.
            case deletedAndMoved
            /// A delete and an update ("reload") of the same old index.
            case deletedAndUpdated
            /// A move and an update of the same old index (a moved row that changed is one move with `isUpdated`).
            case movedAndUpdated
            /// Two updates of the same old index.
            case updatedTwice
        }

        /// How a section is changed by the batch that also holds a row operation inside it.
        public enum SectionChange: String, Sendable, Hashable {
            /// The section is deleted.
            case deleted
            /// The section is inserted.
            case inserted
            /// The section is moved.
            case moved
        }

        /// Which of the changeset's declared counts disagrees with its snapshot.
        public enum Counts: String, Sendable, Hashable {
            /// `sectionCountsBefore` against the old snapshot.
            case before
            /// `sectionCountsAfter` against the new snapshot.
            case after
        }

        /// `sectionCountsBefore` or `sectionCountsAfter` is not the row count of every section of its snapshot.
        case countsMismatch(Counts, declared: [Int], actual: [Int])
        /// `sectionDeletes`, `sectionInserts`, `rowDeletes` or `rowInserts` (named by `field`) is not ascending.
        case notAscending(field: String, previous: String, next: String)
        /// A section index outside its index space; `sectionCount` is the number of sections in that space.
        case sectionOutOfRange(Operation, section: Int, sectionCount: Int)
        /// A row path outside its index space: `rowCount` is the number of rows of its section, or `nil` when the
        /// section itself is out of range (then `sectionCount` says how many there are).
        case rowOutOfRange(Operation, RowPath, sectionCount: Int, rowCount: Int?)
        /// Two section operations claim the same section index.
        case sectionConflict(Conflict, section: Int)
        /// Two row operations claim the same row path.
        case rowConflict(Conflict, RowPath)
        /// The number of sections after the update is not the number before, minus deletes, plus inserts.
        case invalidSectionCount(before: Int, after: Int, inserted: Int, deleted: Int)
        /// The number of rows of a surviving section (new index `section`, old index `oldSection`) after the update
        /// is not the number before plus inserted, minus deleted, plus moved in, minus moved out.
        case invalidRowCount(
            section: Int, oldSection: Int, before: Int, after: Int,
            inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)
        /// A row operation inside a section deleted, inserted or moved by the same batch.
        case rowInChangedSection(Operation, RowPath, SectionChange)
        /// A section move that changes nothing: without it the section would land at the same index.
        case noOpSectionMove(Changeset.Move)
        /// A row move that changes nothing: without it the row would land at the same path (a changed row that
        /// did not move is an update, not a move).
        case noOpRowMove(Changeset.RowMove)
        /// An update whose `to` is not where the row at its `from` ends up.
        case misplacedUpdate(Changeset.RowUpdate, landsAt: RowPath)
        /// An update, or a move with `isUpdated`, pairs an old row with a different new row (by identity), so the
        /// reloaded cell would show another row; the rows are shown as `String(reflecting:)` gives them.
        case identityMismatch(from: RowPath, to: RowPath, oldRow: String, newRow: String)
        /// Staged changes whose stages are out of order, missing, superfluous, or hold operations of another stage.
        case invalidStages(String)
        /// A stage of staged changes is rejected; `violation` says why.
        indirect case inStage(StagedChangeset.Stage.Kind, Violation)
        /// The batch applies cleanly but does not give the new snapshot; the text shows the first difference.
        case resultMismatch(String)
    }
}
