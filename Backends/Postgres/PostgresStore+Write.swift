import FetchKit
import FetchKitDrivers
import Logging

// Every write goes through this file: the writer connection and the transaction boundaries (BEGIN,
// COMMIT, ROLLBACK) live here.

extension PostgresStore {
    /// Runs `body` in one transaction on the writer thread: `BEGIN`, the body, `COMMIT`.
    ///
    /// When `body` throws, or the commit fails, the transaction rolls back whole and the error is rethrown.
    ///
    /// - Throws: what `body` throws; ``FetchKitError/serializationFailure(_:)`` when the server could not
    ///   serialize it with concurrent transactions (run it again); ``FetchKitError/closed`` after
    ///   ``close()``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T {
        let completions = listener?.completions
        let (result, transactionID) = try await writer.run { [compiler, logger, channel = options.channel] connection in
            try PostgresStore.transaction(
                on: connection, compiler: compiler, logger: logger,
                marker: completions.map { (channel, $0) }, body)
        }
        // With change capture, return once the listener has published this transaction's change: a
        // controller that syncs after the write sees it, as with SQLite.
        if let completions, let transactionID { await completions.wait(for: transactionID) }
        return result
    }

    /// The transaction boundary, on the writer thread. With a `marker`, the transaction ends by notifying
    /// its end marker on the channel and registering its server transaction ID with the completions; it
    /// returns that ID.
    static func transaction<T>(
        on connection: PostgresConnection, compiler: SQLCompiler, logger: Logger,
        marker: (channel: String, completions: TransactionCompletions)?,
        _ body: (any WriteTransaction) throws -> T
    ) throws -> (T, Int64?) {
        // Nothing has run yet: a connection that broke since its last use (and was not caught by the check
        // before the statement) is opened again and the transaction begins there.
        _ = try connection.retryingOnce { try connection.run("BEGIN") }
        let transaction = SQLWriteTransaction(connection: connection, compiler: compiler)
        defer { transaction.end() }
        var transactionID: Int64?
        do {
            let result = try body(transaction)
            try transaction.finish()
            if let marker {
                let result = try connection.execute(
                    "SELECT txid_current() AS x, pg_notify($1, '{\"x\":' || txid_current() || ',\"end\":true}')",
                    [.text(marker.channel)])
                if result.rowCount == 1, case .integer(let id) = try result.value(row: 0, column: 0) {
                    transactionID = id
                    marker.completions.expect(id)
                }
            }
            do {
                try connection.run("COMMIT")
            } catch {
                if let transactionID { marker?.completions.cancel(transactionID) }
                throw error
            }
            return (result, transactionID)
        } catch {
            logger.debug("write rolled back", metadata: ["error": "\(error)"])
            if connection.isConnected && connection.isInTransaction {
                do {
                    try connection.run("ROLLBACK")
                } catch {
                    logger.info("rollback failed", metadata: ["error": "\(error)"])
                }
            }
            throw error
        }
    }
}
