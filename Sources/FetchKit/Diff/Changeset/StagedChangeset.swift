/// A changeset split into stages that apply one after another, for collection views.
///
/// Some combinations a table view accepts in one batch (a reload of a row that also moves, row moves inside
/// a moved section) are fragile in a collection view. Applied in stages, each its own batch, none of them meet:
/// 1. ``Stage/Kind/updates``: content changes, at the old paths (including rows that also move);
/// 2. ``Stage/Kind/deletes``: row and section deletes, at the old paths;
/// 3. ``Stage/Kind/sectionInsertsAndMoves``: section inserts and moves;
/// 4. ``Stage/Kind/rowInsertsAndMoves``: row inserts and moves, to the new paths.
///
/// Each stage's ``Stage/changeset`` is indexed against the snapshot the previous stage left (the old results
/// for the first) and is itself a valid batch; its `sectionCountsAfter` is the row count of every section after
/// the stage. Stages with nothing to do are left out, so an empty changeset has no stages.
/// ``snapshots(from:to:)-(DiffSide<Key>,_)`` gives the rows after each stage.
///
/// ```swift
/// let stages = try changeset.staged()
/// for stage in stages.stages {
///     // collectionView.performBatchUpdates { setData(snapshot); apply(stage.changeset) }
/// }
/// ```
public struct StagedChangeset: Sendable, Hashable, Codable {
    /// One batch of the staged change.
    public struct Stage: Sendable, Hashable, Codable {
        /// What a stage holds.
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// Row updates only, at the paths before the stage.
            case updates
            /// Row deletes and section deletes.
            case deletes
            /// Section inserts and section moves.
            case sectionInsertsAndMoves
            /// Row inserts and row moves.
            case rowInsertsAndMoves
        }

        /// What the stage holds.
        public var kind: Kind
        /// The stage's operations, indexed against the snapshot before the stage.
        public var changeset: Changeset

        /// The row count of every section after the stage.
        public var sectionCounts: [Int] { changeset.sectionCountsAfter }

        /// Creates a stage.
        public init(kind: Kind, changeset: Changeset) {
            self.kind = kind
            self.changeset = changeset
        }
    }

    /// The stages, in the order to apply them.
    public var stages: [Stage]
    /// The whole batch the stages split.
    public var changeset: Changeset

    /// Splits `changeset` into stages.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when the changeset breaks the batch contract in a way that
    ///   leaves no stages to compute: an index outside the counts it carries, a row or section named twice, a
    ///   row operation inside an inserted or deleted section, or section counts that do not add up.
    /// - Complexity: O(k log k) for k operations, plus O(sections).
    public init(_ changeset: Changeset) throws {
        try changeset.checkIndexes()
        self.changeset = changeset
        self.stages = StagedChangeset.stages(of: changeset)
    }
}

extension Changeset {
    /// This batch split into stages for collection views: updates; deletes; section inserts and moves; row
    /// inserts and moves.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` as ``StagedChangeset/init(_:)`` does.
    public func staged() throws -> StagedChangeset {
        try StagedChangeset(self)
    }
}
