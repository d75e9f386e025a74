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
    /// The keys, or `nil` for a table-level hint (too many rows, or `TRUNCATE`); for a reference notification, the
    /// values of ``referenceColumn`` (`nil`: too many to report).
    private(set) var keys: [Value]?
    /// For a notification of the values a statement's changed rows held in a followed foreign key (`"o": "r"`), the
    /// column.
    private(set) var referenceColumn: String?
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
        case "r":
            guard let column = parsed.c else { return nil }
            operation = .update
            referenceColumn = column
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
        keys = keys?.map(\.withoutCharPadding)
    }
}
