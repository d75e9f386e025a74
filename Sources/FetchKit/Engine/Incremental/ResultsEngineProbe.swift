// Compiled only with the BenchmarkHooks trait (FetchKit's own benchmarks enable it): never in an app's build.
#if BenchmarkHooks
    /// The incremental engine on rows in memory, without a store, so a benchmark can time one change's engine
    /// work (tree edits and the changeset) against refetch + diff of the same change.
    @_spi(Benchmarks)
    public struct ResultsEngineProbe: Sendable {
        /// The current results.
        public private(set) var snapshot: ResultsSnapshot<Row>
        private let order: SortKeyOrder
        private let sectionKey: String?

        /// A probe holding `rows`, which must be sorted by `order` (sections by `sectionKey` contiguous).
        public init(rows: [Row], order: SortKeyOrder, sectionKey: String? = nil) {
            self.order = order
            self.sectionKey = sectionKey
            self.snapshot = ResultsSnapshot(
                rows: rows, objects: rows, primaryKey: order.primaryKey, sectionKey: sectionKey, order: order)
        }

        /// Applies one changed row as the incremental path does after re-reading it: the row with its primary key
        /// is removed, `row` is inserted at its place, and the changeset is found from that row alone.
        ///
        /// - Returns: the number of operations in the changeset.
        /// - Complexity: O(log n + s).
        public mutating func applyIncrementally(_ row: Row) throws -> Int {
            guard var editor = ResultsSnapshotEditor(snapshot, sectionKey: sectionKey) else {
                throw IncrementalInconsistency(description: "the probe's rows are not strictly increasing in its order")
            }
            let key = row[order.primaryKey] ?? .null
            let fresh = ResultsSnapshotEditor<Row>.FreshRow(row: row, object: row, sortKey: editor.sortKey(of: row))
            let change = try editor.apply(removing: [key], inserting: [fresh], limit: nil, old: snapshot)
            let items = try editor.items(of: change, old: snapshot)
            let next = editor.snapshot()
            let changeset = try LocalChangeset.make(from: snapshot, to: next, items: items)
            snapshot = next
            return changeset.changeCount
        }

        /// Applies the same kind of change as the refetch path does: a snapshot of all of `rows` (the results
        /// after the change, in order) and the keyed diff from the current one.
        ///
        /// - Returns: the number of operations in the changeset.
        /// - Complexity: O(n).
        public mutating func applyByRefetch(_ rows: [Row]) throws -> Int {
            let next = ResultsSnapshot(
                rows: rows, objects: rows, primaryKey: order.primaryKey, sectionKey: sectionKey, order: order)
            let changeset = try ResultsDiff.changeset(from: snapshot, to: next)
            snapshot = next
            return changeset.changeCount
        }
    }
#endif
