import CLibPQ
import FetchKit

extension PostgresConnection {
    /// How many bytes of `COPY` data are handed to libpq at a time.
    static let copyChunkSize = 1 << 18

    /// Streams `rows` into `table` with one `COPY table (columns) FROM STDIN (FORMAT binary)` statement,
    /// inside the open transaction: one round trip, whatever the number of rows; the table's statement-level
    /// triggers fire once.
    ///
    /// `table` and `columns` are quoted identifiers from the schema; the values never become SQL text.
    /// - Parameter values: the rows' values, row after row, one per column.
    /// - Throws: the ``FetchKitError`` of the server's SQLSTATE (a unique or not-null violation, a value the
    ///   column refuses); ``FetchKitError/Code/invalidValue`` for a value PostgreSQL cannot hold. The
    ///   statement then has failed whole, and the connection is ready for `ROLLBACK`.
    func copy(into table: String, columns: [String], values: [Value]) throws {
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN (FORMAT binary)"
        try ensureUsable(endingTransaction: false)
        // A connection that breaks inside the transaction fails the rest of it (see `ensureUsable`).
        let inTransaction = isInTransaction
        defer { if inTransaction && !isConnected { brokeInTransaction = true } }
        guard let started = PQexec(handle, sql) else { throw PostgresErrorMapping.connectionError(self, sql: sql) }
        let start = PostgresResult(started)
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            throw PostgresErrorMapping.error(of: start, connection: self, sql: sql)
        }
        do {
            var encoder = PostgresCopyEncoder(capacity: Self.copyChunkSize + (1 << 12))
            for (index, start) in stride(from: 0, to: values.count, by: columns.count).enumerated() {
                try encoder.appendRow(values[start..<start + columns.count], row: index + 1)
                if encoder.buffer.count >= Self.copyChunkSize { try send(&encoder, sql: sql) }
            }
            encoder.appendTrailer()
            try send(&encoder, sql: sql)
        } catch {
            // End the COPY as failed, so the server discards what it received; the error to report is ours.
            PQputCopyEnd(handle, "the client stopped the COPY")
            _ = copyOutcome(sql: sql)
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw PostgresErrorMapping.connectionError(self, sql: sql) }
        if let failure = copyOutcome(sql: sql) { throw failure }
    }

    /// Hands the encoded data to libpq (which sends it as its buffer fills).
    private func send(_ encoder: inout PostgresCopyEncoder, sql: String) throws {
        let sent = encoder.take { bytes in
            bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { throw PostgresErrorMapping.connectionError(self, sql: sql) }
    }

    /// Reads every result the ended `COPY` produced; returns the first failure's error, if any.
    private func copyOutcome(sql: String) -> FetchKitError? {
        var failure: FetchKitError?
        while let next = PQgetResult(handle) {
            let result = PostgresResult(next)
            if PQresultStatus(next) != PGRES_COMMAND_OK && failure == nil {
                failure = PostgresErrorMapping.error(of: result, connection: self, sql: sql)
            }
        }
        return failure
    }
}
