/// A batch as a remote client needs it: the changeset with its before/after section counts, the names of
/// inserted sections, and the objects of inserted, updated and changed-and-moved rows — versioned, Codable,
/// ready to send over a WebSocket as JSON.
///
/// ```json
/// {"version": 1, "transaction": 42, "countsBefore": [2, 1], "countsAfter": [3],
///  "sections": {"deleted": [1], "inserted": [{"index": 1, "name": "Work", "objects": [{"id": 9}]}], "moved": []},
///  "rows": {"deleted": [], "inserted": [{"at": [0, 2], "object": {"id": 7, "title": "New"}}],
///           "moved": [{"from": [1, 0], "to": [0, 0]}],
///           "updated": [{"from": [0, 1], "to": [0, 1], "object": {"id": 3, "title": "Renamed"}}]}}
/// ```
///
/// Apply it as a table view applies a batch — deletes and move sources in the old index space, in
/// descending order; inserts and move destinations in the new one, ascending; then updates — checking the
/// counts before and after: ``WireList`` does in Swift, `Clients/JavaScript/fetchkit-changeset.js` in a
/// browser. A client whose counts do not match is out of step and should refetch.
public struct WireChangeset<Object: Sendable>: Sendable {
    /// The wire format's version; a decoder refuses any other.
    public static var currentVersion: Int { 1 }

    /// A section inserted at `index`, named `name`, with its objects (a batch names no row inside a section
    /// it inserts).
    public struct SectionInsert: Sendable {
        /// The section's new index.
        public var index: Int
        /// The section's name.
        public var name: String
        /// Its rows' objects, in order.
        public var objects: [Object]
    }

    /// A row inserted at `at`, with its object.
    public struct RowInsert: Sendable {
        /// The row's new path.
        public var at: RowPath
        /// The row's object.
        public var object: Object
    }

    /// A row moved from `from` to `to`; `object` is set when its content changed too.
    public struct RowMove: Sendable {
        /// The row's old path.
        public var from: RowPath
        /// The row's new path.
        public var to: RowPath
        /// The row's new object, when its content changed.
        public var object: Object?
    }

    /// A row updated in place: found at `from`, now at `to`, with its new object.
    public struct RowUpdate: Sendable {
        /// The row's old path (where a client finds it).
        public var from: RowPath
        /// The row's new path (where it is after the batch).
        public var to: RowPath
        /// The row's new object.
        public var object: Object
    }

    /// The format's version (``currentVersion`` when made here).
    public var version: Int
    /// The store transaction that caused the batch, if any.
    public var transactionID: UInt64?
    /// Rows per section before the batch.
    public var sectionCountsBefore: [Int]
    /// Rows per section after the batch.
    public var sectionCountsAfter: [Int]
    /// Deleted sections (old indexes), ascending.
    public var sectionDeletes: [Int]
    /// Inserted sections (new indexes), ascending.
    public var sectionInserts: [SectionInsert]
    /// Moved sections.
    public var sectionMoves: [Changeset.Move]
    /// Deleted rows (old paths), ascending.
    public var rowDeletes: [RowPath]
    /// Inserted rows (new paths), ascending.
    public var rowInserts: [RowInsert]
    /// Moved rows.
    public var rowMoves: [RowMove]
    /// Rows updated in place.
    public var rowUpdates: [RowUpdate]

    /// The wire form of a controller's batch.
    ///
    /// The first element of ``ResultsController/updates()`` has no changeset: it becomes the batch that
    /// inserts everything into an empty list.
    ///
    /// - Complexity: O(*c* log *n*) for *c* changes in *n* results.
    public init(_ update: ResultsBatch<Object>) {
        guard let changeset = update.changeset else {
            self.init(inserting: update.snapshot, transactionID: update.transactionID)
            return
        }
        let names = update.snapshot.sectionNames
        let snapshot = update.snapshot
        self.init(
            version: Self.currentVersion, transactionID: update.transactionID,
            sectionCountsBefore: changeset.sectionCountsBefore, sectionCountsAfter: changeset.sectionCountsAfter,
            sectionDeletes: changeset.sectionDeletes,
            sectionInserts: changeset.sectionInserts.map { index in
                SectionInsert(index: index, name: names[index], objects: Array(snapshot.sections[index].objects))
            },
            sectionMoves: changeset.sectionMoves, rowDeletes: changeset.rowDeletes,
            rowInserts: changeset.rowInserts.compactMap { path in
                snapshot.object(at: path).map { RowInsert(at: path, object: $0) }
            },
            rowMoves: changeset.rowMoves.map {
                RowMove(from: $0.from, to: $0.to, object: $0.isUpdated ? snapshot.object(at: $0.to) : nil)
            },
            rowUpdates: changeset.rowUpdates.compactMap { update in
                snapshot.object(at: update.to).map { RowUpdate(from: update.from, to: update.to, object: $0) }
            })
    }

    /// The batch that fills an empty list with `snapshot`.
    public init(inserting snapshot: ResultsSnapshot<Object>, transactionID: UInt64? = nil) {
        let sections = snapshot.sections
        self.init(
            version: Self.currentVersion, transactionID: transactionID, sectionCountsBefore: [],
            sectionCountsAfter: sections.map(\.numberOfObjects), sectionDeletes: [],
            sectionInserts: sections.enumerated().map {
                SectionInsert(index: $0.offset, name: $0.element.name, objects: Array($0.element.objects))
            },
            sectionMoves: [], rowDeletes: [], rowInserts: [], rowMoves: [], rowUpdates: [])
    }

    /// A wire changeset from its parts.
    public init(
        version: Int = WireChangeset.currentVersion, transactionID: UInt64?, sectionCountsBefore: [Int],
        sectionCountsAfter: [Int], sectionDeletes: [Int], sectionInserts: [SectionInsert],
        sectionMoves: [Changeset.Move],
        rowDeletes: [RowPath], rowInserts: [RowInsert], rowMoves: [RowMove], rowUpdates: [RowUpdate]
    ) {
        self.version = version
        self.transactionID = transactionID
        self.sectionCountsBefore = sectionCountsBefore
        self.sectionCountsAfter = sectionCountsAfter
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionMoves = sectionMoves
        self.rowDeletes = rowDeletes
        self.rowInserts = rowInserts
        self.rowMoves = rowMoves
        self.rowUpdates = rowUpdates
    }
}

extension WireChangeset.SectionInsert: Encodable where Object: Encodable {}
extension WireChangeset.SectionInsert: Decodable where Object: Decodable {}
