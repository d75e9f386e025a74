/// A batch as one value: the results before and after, and the changeset between them.
///
/// A batch is one reference inside: copying it — into a stream, to each of 10,000 controllers that share
/// one request — costs one retain, whatever the size of its snapshots and changeset.
public struct ResultsBatch<Object: Sendable>: Sendable {
    private final class Storage: Sendable {
        let previous: ResultsSnapshot<Object>
        let snapshot: ResultsSnapshot<Object>
        let changeset: Changeset?
        let transactionID: UInt64?
        let transactions: ClosedRange<UInt64>?
        /// The section and row callbacks, when built with the batch.
        let preparedChanges: PreparedChanges<Object>?
        /// Whether the batch has a changeset (it is not the first element of an updates sequence).
        let hasChangeset: Bool
        /// Whether the changeset changes anything.
        let hasChanges: Bool

        init(
            previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset?,
            transactionID: UInt64?, transactions: ClosedRange<UInt64>?, preparedChanges: PreparedChanges<Object>?
        ) {
            self.previous = previous
            self.snapshot = snapshot
            self.changeset = changeset
            self.transactionID = transactionID
            self.transactions = transactions
            self.preparedChanges = preparedChanges
            hasChangeset = changeset != nil
            hasChanges = changeset?.isEmpty == false
        }
    }

    private var storage: Storage

    /// The results before the batch (empty for the first update of a stream).
    public var previous: ResultsSnapshot<Object> { _read { yield storage.previous } }
    /// The results after the batch.
    public var snapshot: ResultsSnapshot<Object> { _read { yield storage.snapshot } }
    /// What changed; `nil` for the first element of ``ResultsController/updates()``, the current results.
    public var changeset: Changeset? { _read { yield storage.changeset } }
    /// The store transaction that caused it (`nil` for fetches and request changes).
    public var transactionID: UInt64? { storage.transactionID }
    /// The store transactions the batch brings the results through: from the one after the controller's
    /// previous batch to ``transactionID``.
    ///
    /// Transactions in the range that the batch does not otherwise show needed no batch of their own:
    /// nothing they changed is in the results, or an earlier batch already showed it (the controller read the
    /// rows after they committed — a row written twice while it was behind). Wait for a transaction with
    /// ``ResultsController/sync()`` or ``ResultsController/appliedTransactionID``, never for "its" batch.
    public var transactions: ClosedRange<UInt64>? { storage.transactions }
    /// The section and row callbacks, when the batch was built with them.
    var preparedChanges: PreparedChanges<Object>? { storage.preparedChanges }
    /// Whether the batch changes anything (it has a changeset, and the changeset is not empty).
    var hasChanges: Bool { storage.hasChanges }
    /// Whether the batch has a changeset (it is not the first element of an updates sequence).
    var hasChangeset: Bool { storage.hasChangeset }

    /// The batch as one reference, for queues that are not generic over the object type.
    var erased: any AnyObject & Sendable { storage }

    /// The batch `erased` holds (it must come from ``erased`` of a batch of this object type).
    init(erased: any AnyObject & Sendable) {
        storage = unsafeDowncast(erased, to: Storage.self)
    }

    /// A batch; `transactions` defaults to ``transactionID`` alone.
    public init(
        previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset?,
        transactionID: UInt64?, transactions: ClosedRange<UInt64>? = nil
    ) {
        self.init(
            previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID,
            transactions: transactions, preparingChanges: false)
    }

    /// A batch whose section and row callbacks are built now, once: one that many controllers deliver.
    init(
        previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset?,
        transactionID: UInt64?, transactions: ClosedRange<UInt64>?, preparingChanges: Bool
    ) {
        storage = Storage(
            previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID,
            transactions: transactions ?? transactionID.map { $0...$0 },
            preparedChanges: preparingChanges
                ? changeset.map { PreparedChanges(previous: previous, snapshot: snapshot, changeset: $0) } : nil)
    }

    /// This batch naming `transactions` instead (the same snapshots, changeset and prepared callbacks).
    func covering(_ transactions: ClosedRange<UInt64>?) -> ResultsBatch {
        guard transactions != self.transactions else { return self }
        var copy = self
        copy.storage = Storage(
            previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID,
            transactions: transactions, preparedChanges: preparedChanges)
        return copy
    }
}
