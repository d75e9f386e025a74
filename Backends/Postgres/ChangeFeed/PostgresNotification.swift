import FetchKit

/// One notification of FetchKit's change capture, parsed: which transaction, table and operation, and
/// which primary keys (or the whole table).
struct PostgresNotification: Equatable {
    /// The server's transaction ID (`txid_current()`): notifications of one transaction share it.
    let transactionID: Int64
    /// The table's schema (namespace); `nil` for an end marker.
    let schema: String?
    let table: String
    let operation: TableChange.Operation
    /// The keys, or `nil` for a table-level hint (too many rows, or `TRUNCATE`).
    private(set) var keys: [Value]?
    /// `true` for the marker a ``PostgresStore`` write sends last, just before `COMMIT`: the transaction's
    /// notifications are complete.
    let isEnd: Bool

    /// The end marker of server transaction `transactionID`.
    static func endMarker(_ transactionID: Int64) -> String { "{\"x\":\(transactionID),\"end\":true}" }

    /// Parses a payload; `nil` when it is not one FetchKit's trigger (or a store's write) sends.
    init?(payload: String) {
        guard let parsed = Payload(scanning: payload) ?? Payload(decoding: payload) else { return nil }
        transactionID = parsed.x
        schema = parsed.s
        if parsed.end == true {
            table = ""
            operation = .update
            keys = []
            isEnd = true
            return
        }
        isEnd = false
        guard let table = parsed.t else { return nil }
        switch parsed.o {
        case "i": operation = .insert
        case "u": operation = .update
        case "d", "t": operation = .delete
        default: return nil
        }
        self.table = table
        if parsed.all == true {
            keys = nil
        } else {
            guard let raw = parsed.k else { return nil }
            keys = raw
        }
    }
}

extension PostgresNotification {
    /// Drops the trailing blanks of text keys, as casting PostgreSQL's `char(n)` to text does: the trigger
    /// sends a `char(n)` key as stored (padded), a fetch reads it through that cast.
    mutating func removeKeyPadding() {
        keys = keys?.map { key in
            guard case .text(let text) = key else { return key }
            var scalars = text.unicodeScalars[...]
            while scalars.last == " " { scalars = scalars.dropLast() }
            return .text(String(scalars))
        }
    }
}
