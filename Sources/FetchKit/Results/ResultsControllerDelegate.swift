/// What happened to a section or an object in a batch.
public enum ResultsChangeType: String, Sendable, Hashable, Codable {
    case insert, delete, move, update
}

/// Receives a results controller's batches, NSFetchedResultsController-style.
///
/// For each committed transaction that changes the results, the controller calls, in this order:
/// ``controllerWillChangeContent(_:)``, one ``controller(_:didChange:atSectionIndex:for:newSectionIndex:)``
/// per section change, one ``controller(_:didChange:at:for:newRowPath:)`` per row change,
/// ``controllerDidChangeContent(_:)``, and finally ``controller(_:didApply:)`` with the whole batch.
/// Every method has an empty default implementation.
///
/// - Important: Callbacks of one controller are serialized and arrive in commit order, on the controller's
///   own task (not the main thread: there is none on a server). When they run, the controller already holds
///   the new results. Keep them short: the next batch waits for them.
public protocol ResultsControllerDelegate<Object>: AnyObject, Sendable {
    /// The controller's object type (`Row` or a `Record`).
    associatedtype Object: Sendable

    /// A batch begins.
    func controllerWillChangeContent(_ controller: ResultsController<Object>)
    /// A section was inserted (new index), deleted (old index) or moved (both).
    func controller(
        _ controller: ResultsController<Object>, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?)
    /// A row was inserted (`newRowPath`), deleted (`rowPath`), moved or updated (both). `object` is the new
    /// object, except for deletes, where it is the old one.
    func controller(
        _ controller: ResultsController<Object>, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?)
    /// The batch ended.
    func controllerDidChangeContent(_ controller: ResultsController<Object>)
    /// The whole batch, after the individual callbacks.
    func controller(_ controller: ResultsController<Object>, didApply update: ResultsUpdate<Object>)
    /// A permanent failure stopped the controller (its ``ResultsController/status`` is now
    /// ``ResultsStatus/failed(_:)``): it keeps its last results and applies no further change until
    /// ``ResultsController/performFetch()`` or ``ResultsController/setRequest(_:)`` starts it again.
    ///
    /// Transient failures, which the controller retries on its own, show in its status instead.
    func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError)
}

extension ResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: ResultsController<Object>) {}
    public func controller(
        _ controller: ResultsController<Object>, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {}
    public func controller(
        _ controller: ResultsController<Object>, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {}
    public func controllerDidChangeContent(_ controller: ResultsController<Object>) {}
    public func controller(_ controller: ResultsController<Object>, didApply update: ResultsUpdate<Object>) {}
    public func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError) {}
}

/// A batch as one value: the results before and after, and the changeset between them.
///
/// A batch is one reference inside: copying it — into a stream, to each of 10,000 controllers that share
/// one request — costs one retain, whatever the size of its snapshots and changeset.
public struct ResultsUpdate<Object: Sendable>: Sendable {
    private final class Storage: Sendable {
        let previous: ResultsSnapshot<Object>
        let snapshot: ResultsSnapshot<Object>
        let changeset: Changeset?
        let transactionID: UInt64?
        let transactions: ClosedRange<UInt64>?
        /// The section and row callbacks, when built with the batch (see ``prepareChanges``).
        let preparedChanges: [BatchCallback<Object>]?

        init(
            previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset?,
            transactionID: UInt64?, transactions: ClosedRange<UInt64>?, preparedChanges: [BatchCallback<Object>]?
        ) {
            self.previous = previous
            self.snapshot = snapshot
            self.changeset = changeset
            self.transactionID = transactionID
            self.transactions = transactions
            self.preparedChanges = preparedChanges
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
    var preparedChanges: [BatchCallback<Object>]? { storage.preparedChanges }

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
        self.init(previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID,
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
            preparedChanges: preparingChanges ? changeset.map {
                Self.prepareChanges(previous: previous, snapshot: snapshot, changeset: $0)
            } : nil)
    }

    /// This batch naming `transactions` instead (the same snapshots, changeset and prepared callbacks).
    func covering(_ transactions: ClosedRange<UInt64>?) -> ResultsUpdate {
        guard transactions != self.transactions else { return self }
        var copy = self
        copy.storage = Storage(
            previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID,
            transactions: transactions, preparedChanges: preparedChanges)
        return copy
    }
}
