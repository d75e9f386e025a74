import FetchKit

/// One committed transaction as the log tells it: the keys it changed per table and, where the log holds
/// them, the rows it wrote.
struct LogTransaction: Equatable, Sendable {
    var transactionID: UInt32
    /// Where its commit record starts.
    var commit: LogPosition
    /// Where its commit record ends: acknowledging it tells the server everything up to it is applied.
    var end: LogPosition
    /// The keys it inserted, updated and deleted, per table (a truncated table is a whole-table change).
    var tables: [String: TableChange]
    /// The rows as the transaction left them, by table and key: every inserted or updated row, none deleted.
    var rows: [String: [Value: LogRow]]
    /// How long before the server sent its commit the transaction committed, on the server's clock (microseconds):
    /// the feed's lag behind the database when the commit arrived.
    var age: Int64 = 0

    /// The keys whose rows the log does not hold whole (an update left a TOASTed value out): re-read them.
    var incomplete: [String: Set<Value>] {
        rows.compactMapValues { rows in
            let keys = Set(rows.filter { !$0.value.missing.isEmpty }.keys)
            return keys.isEmpty ? nil : keys
        }
    }
}
