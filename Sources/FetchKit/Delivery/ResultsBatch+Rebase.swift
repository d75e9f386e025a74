extension ResultsBatch {
    /// This batch for a view that shows `shown` (`nil`: this batch's previous results) and is to show
    /// `target` (this batch's results, or them with the view's waiting moves applied): the batch as it is
    /// when both ends match, else the keyed diff between them, which moves the rows in `movingFirst` (those of
    /// the view's moves that no longer apply, going back) rather than the rows around them; `nil` when the view
    /// needs no batch.
    ///
    /// - Throws: the diff's error when a side's sections are not contiguous — which never happens to
    ///   results a controller published, so the caller fails the controller rather than drop the batch.
    /// - Complexity: O(1) when both ends match; otherwise the keyed diff's, O(*n* + *m*).
    func rebased(
        from shown: ResultsSnapshot<Object>?, to target: ResultsSnapshot<Object>, movingFirst: Set<Value> = []
    ) throws -> ResultsBatch? {
        let base = shown ?? previous
        if base.isIdentical(to: previous), target.isIdentical(to: snapshot) {
            return changeset?.isEmpty == false ? self : nil
        }
        let changeset = try ResultsDiff.changeset(from: base, to: target, movingFirst: movingFirst)
        guard !changeset.isEmpty else { return nil }
        return ResultsBatch(
            previous: base, snapshot: target, changeset: changeset, transactionID: transactionID,
            transactions: transactions)
    }
}
