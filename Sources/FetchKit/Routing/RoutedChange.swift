/// One committed change as the router hands it to a controller it can affect: the store's change, and for
/// each entity table whose rows the router re-read, those rows. A controller behind folds the routed changes
/// waiting in its queue into one (``absorb(_:keyLimit:)``).
struct RoutedChange: Sendable {
    /// The change as the store published it (folded: every change it covers).
    var change: StoreChange
    /// The re-read rows, by entity table.
    var rows: [String: RereadRows]
    /// The transaction under which the oldest of ``rows`` was routed: the rows were read after every change
    /// routed before it (a controller trusts them only when its last fetch did not start after that).
    var earliestRead: UInt64
    /// How many changes the router handed over that this one covers.
    var covers = 1
    /// The contexts of the route spans that handed it over (``FetchKitTracing``): the parents of its apply span.
    var trace = TraceLinks()

    init(change: StoreChange, rows: [String: RereadRows]) {
        self.change = change
        self.rows = rows
        earliestRead = change.transactionID
    }

    /// Folds `later`, routed after this change, into it: one change naming both changes' keys, with the rows
    /// re-read for each (the later read of a key wins). A table whose rows cannot be merged (read with other
    /// related columns) loses them: the controller re-reads its keys itself.
    ///
    /// - Complexity: O(k) for the k keys `later` names.
    mutating func absorb(_ later: RoutedChange, keyLimit: Int) {
        change.absorb(later.change, keyLimit: keyLimit)
        earliestRead = min(earliestRead, later.earliestRead)
        covers += later.covers
        trace.absorb(later.trace)
        for table in Set(rows.keys).union(later.rows.keys) {
            guard var merged = rows.removeValue(forKey: table), let newer = later.rows[table],
                merged.absorb(newer)
            else { continue }
            rows[table] = merged
        }
    }
}
