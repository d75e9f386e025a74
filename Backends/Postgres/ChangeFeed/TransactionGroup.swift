import FetchKit

/// The notifications of one server transaction, folded into one change per table.
struct TransactionGroup {
    /// The transaction whose notifications are held; `nil` when none are.
    private(set) var transactionID: Int64?
    private var tables: [String: TableChange] = [:]

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

    /// The group's change by table — `nil` when it holds none — leaving the group empty.
    mutating func take() -> [String: TableChange]? {
        defer {
            tables = [:]
            transactionID = nil
        }
        return tables.isEmpty ? nil : tables
    }
}
