/// Makes the ``SortKey``s of rows in one order, reusing one encoder's buffer and column positions.
///
/// A reference type, so closures handed to a ``ResultsEntries`` mutation (which need the separator of an
/// element) can use it while the tree itself is being mutated. Not shareable across tasks: each editor or
/// lookup makes its own.
final class SortKeyMaker {
    /// The order the keys are made in.
    let order: SortKeyOrder
    /// Used by one key at a time (`key(_:)` never re-enters), so the runtime's exclusivity check is skipped.
    @exclusivity(unchecked) private var encoder = SortKeyEncoder()

    init(_ order: SortKeyOrder) {
        self.order = order
    }

    /// The key of `row`.
    func key(_ row: Row) -> SortKey { order.key(row, using: &encoder) }

    /// The first position in `entries` whose row's key is not less than `key`.
    ///
    /// - Complexity: O(log n) separator comparisons and O(log b) keys made for one leaf of b rows.
    func lowerBound<Object>(of key: SortKey, in entries: ResultsEntries<Object>) -> Int {
        entries.partitioningIndex(separator: { !($0 < key) }, row: { !(self.key($0) < key) })
    }
}
