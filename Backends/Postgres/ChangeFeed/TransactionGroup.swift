import FetchKit

/// The notifications of one server transaction, folded into one change per table.
struct TransactionGroup {
    /// The transaction whose notifications are held; `nil` when none are.
    private(set) var transactionID: Int64?
    private var tables: [String: TableChange] = [:]

    /// Folds `notification` (not an end marker) into the group.
    mutating func add(_ notification: PostgresNotification) {
        transactionID = notification.transactionID
        var change = tables[notification.table] ?? TableChange()
        if let keys = notification.keys {
            for key in keys { change.record(notification.operation, key: key) }
        } else {
            change.isWholeTable = true
        }
        tables[notification.table] = change
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
