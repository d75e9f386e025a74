@_spi(Backend) import FetchKit
import FetchKitDrivers
import Logging

// Every write goes through this file: the writer connection and the transaction boundaries (BEGIN,
// COMMIT, ROLLBACK) live here.

extension PostgresStore {
    /// Runs `body` in one transaction on the writer thread: `BEGIN`, the body, `COMMIT`.
    ///
    /// When `body` throws, or the commit fails, the transaction rolls back whole and the error is rethrown.
    ///
    /// With change capture, the write returns once its change has reached every ``changes()`` subscriber,
    /// so `controller.sync()` afterwards sees it. When the listener cannot publish it in time — its server
    /// process stopped answering, or its connection broke (``listenerStatus`` then says
    /// ``ListenerStatus/stalled(reason:)`` or ``ListenerStatus/reconnecting(attempt:lastError:)``) — the
    /// write returns anyway, within about ``ListenerOptions/publishTimeout`` + ``ListenerOptions/pingTimeout``
    /// (at once while the listener is reconnecting): it has committed, and the resync the listener publishes
    /// when it is connected again brings every live controller up to date.
    ///
    /// - Throws: what `body` throws; ``FetchKitError/Code/serializationFailure`` when the server could not
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
        if let listener, let transactionID { await waitUntilPublished(transactionID, by: listener) }
        return result
    }

    /// Waits until the listener has published transaction `id` — or, when that is overdue
    /// (``ListenerOptions/publishTimeout``), until the listener has checked its connection and, finding it
    /// stalled, reconnected (publishing a resync) or started reconnecting; at most about
    /// `publishTimeout + pingTimeout` plus one reconnection attempt.
    private func waitUntilPublished(_ id: Int64, by listener: PostgresListener) async {
        let options = options.listener
        if case .reconnecting = listener.state {
            // The listener is reconnecting: the resync it publishes when it is back covers this write, which
            // need not wait out the outage.
            listener.completions.forget(id)
            return
        }
        if await listener.completions.wait(for: id, timeout: options.publishTimeout) { return }
        listener.checkConnection()
        let recovery = options.pingTimeout + options.reconnectBackoff.lowerBound + .seconds(2)
        if await listener.completions.wait(for: id, timeout: recovery) { return }
        listener.completions.forget(id)
        logger.info(
            "write returned before the listener published its change; a resync will follow",
            metadata: ["listener": "\(listenerStatus)"])
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
