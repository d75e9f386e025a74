import FetchKit

/// The notifications of one server transaction, folded into one change per table.
struct TransactionGroup {
    /// The transaction whose notifications are held; `nil` when none are.
    private(set) var transactionID: Int64?
    private var tables: [String: TableChange] = [:]
    /// Tables and attributes whose references a statement could not report (too many values): unknown for the
    /// whole transaction.
    private var unknownReferences: Set<Reference> = []

    /// A followed foreign key of a table.
    private struct Reference: Hashable {
        let table: String
        let attribute: String
    }

    /// Folds `notification` (not an end marker) into the group.
    ///
    /// - Complexity: O(k) for a notification of k keys. The table's change is edited in place in the
    ///   dictionary: a copy taken out and stored back would share its sets with the dictionary's, and every
    ///   key recorded would copy them — O(n²) for a transaction of n single-row statements.
    mutating func add(_ notification: PostgresNotification) {
        transactionID = notification.transactionID
        if let keys = notification.keys {
            for key in keys {
                tables[notification.table, default: TableChange()].record(notification.operation, key: key)
            }
        } else {
            tables[notification.table, default: TableChange()].isWholeTable = true
        }
    }

    /// Folds the values a statement's changed rows held in `table`'s followed foreign key `attribute` (`nil`: too
    /// many to report) into the group. An attribute is known once a statement reported it, unless one could not.
    mutating func addReferences(_ values: [Value]?, attribute: String, table: String, transactionID: Int64) {
        self.transactionID = transactionID
        guard let values else {
            unknownReferences.insert(Reference(table: table, attribute: attribute))
            return
        }
        if values.isEmpty { tables[table, default: TableChange()].recordReference(.null, attribute: attribute) }
        for value in values { tables[table, default: TableChange()].recordReference(value, attribute: attribute) }
    }

    /// The group's change by table — `nil` when it holds none — leaving the group empty.
    mutating func take() -> [String: TableChange]? {
        defer {
            tables = [:]
            unknownReferences = []
            transactionID = nil
        }
        for unknown in unknownReferences { tables[unknown.table]?.references[unknown.attribute] = nil }
        return tables.isEmpty ? nil : tables
    }
}
