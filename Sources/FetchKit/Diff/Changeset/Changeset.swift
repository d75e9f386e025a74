/// One batch of changes between two results, in the shape a table view's batch update takes.
///
/// The batch contract:
/// - deleted rows and sections carry old indexes; inserted ones new indexes; moves and updates carry both;
/// - a row that moves and also changes is one move with ``RowMove/isUpdated`` set — never a move to itself;
/// - no row operation falls inside a section inserted or deleted in the same batch;
/// - ``sectionCountsBefore`` and ``sectionCountsAfter`` give the row count of every section before and
///   after, so a consumer can check that the batch applies cleanly (FetchKitTesting's `ListSimulator` does).
public struct Changeset: Sendable, Hashable, Codable {
    /// Indexes (old) of deleted sections, ascending.
    public var sectionDeletes: [Int]
    /// Indexes (new) of inserted sections, ascending.
    public var sectionInserts: [Int]
    /// Sections that moved: old index to new index.
    public var sectionMoves: [Move]
    /// Paths (old) of deleted rows, ascending.
    public var rowDeletes: [RowPath]
    /// Paths (new) of inserted rows, ascending.
    public var rowInserts: [RowPath]
    /// Rows that moved, possibly across sections: old path to new path.
    public var rowMoves: [RowMove]
    /// Rows whose content changed without moving: old path and new path (they differ when rows
    /// before it were inserted or deleted).
    public var rowUpdates: [RowUpdate]
    /// The number of rows in each section before the batch.
    public var sectionCountsBefore: [Int]
    /// The number of rows in each section after the batch.
    public var sectionCountsAfter: [Int]

    /// Creates a changeset.
    public init(
        sectionDeletes: [Int] = [], sectionInserts: [Int] = [], sectionMoves: [Move] = [],
        rowDeletes: [RowPath] = [], rowInserts: [RowPath] = [], rowMoves: [RowMove] = [],
        rowUpdates: [RowUpdate] = [], sectionCountsBefore: [Int], sectionCountsAfter: [Int]
    ) {
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionMoves = sectionMoves
        self.rowDeletes = rowDeletes
        self.rowInserts = rowInserts
        self.rowMoves = rowMoves
        self.rowUpdates = rowUpdates
        self.sectionCountsBefore = sectionCountsBefore
        self.sectionCountsAfter = sectionCountsAfter
    }

    /// `true` when the batch changes nothing.
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && rowDeletes.isEmpty
            && rowInserts.isEmpty && rowMoves.isEmpty && rowUpdates.isEmpty
    }

    /// The number of row and section operations.
    public var changeCount: Int {
        sectionDeletes.count + sectionInserts.count + sectionMoves.count + rowDeletes.count + rowInserts.count
            + rowMoves.count + rowUpdates.count
    }

    /// A section move.
    public struct Move: Sendable, Hashable, Codable {
        /// The old index.
        public var from: Int
        /// The new index.
        public var to: Int
        /// Creates a move.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// A row move.
    public struct RowMove: Sendable, Hashable, Codable {
        /// The old path.
        public var from: RowPath
        /// The new path.
        public var to: RowPath
        /// Whether the row's content changed too (refresh the cell after moving it).
        public var isUpdated: Bool
        /// Creates a row move.
        public init(from: RowPath, to: RowPath, isUpdated: Bool = false) {
            self.from = from
            self.to = to
            self.isUpdated = isUpdated
        }
    }

    /// A row update in place.
    public struct RowUpdate: Sendable, Hashable, Codable {
        /// The old path (find the cell here).
        public var from: RowPath
        /// The new path (read the object here).
        public var to: RowPath
        /// Creates a row update.
        public init(from: RowPath, to: RowPath) {
            self.from = from
            self.to = to
        }
    }
}
