extension ResultsBatch {
    /// The batch that takes a client showing `previous` to `snapshot`: any two snapshots of one request,
    /// however far apart.
    ///
    /// A server that streams results to remote clients keeps the snapshot each client was last sent; when a
    /// client falls out of step (it reconnects, or the server skipped updates) this is the one batch that
    /// brings it back, instead of resending everything.
    ///
    /// ```swift
    /// let catchUp = try ResultsBatch(from: lastSent, to: controller.snapshot)
    /// if let changeset = catchUp.changeset, !changeset.isEmpty { send(WireChangeset(catchUp)) }
    /// ```
    ///
    /// Rows are matched by primary key; a matched row whose fetched values differ is updated. The changeset
    /// passes the batch contract (see <doc:TheBatchContract>) like every controller batch.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when a snapshot's sections are not contiguous.
    /// - Complexity: O(*n* + *m*) for snapshots of *n* and *m* rows, plus O(*k* log *k*) for the *k* rows
    ///   that moved.
    public init(
        from previous: ResultsSnapshot<Object>, to snapshot: ResultsSnapshot<Object>, transactionID: UInt64? = nil
    ) throws {
        self.init(
            previous: previous, snapshot: snapshot, changeset: try ResultsDiff.changeset(from: previous, to: snapshot),
            transactionID: transactionID)
    }
}
