import FetchKitBackendKit
import Logging

// Every write goes through this file: the writer connection and the transaction boundaries (BEGIN,
// COMMIT, ROLLBACK) live here.

extension PostgresStore {
    /// Runs `body` in one transaction on the writer thread: `BEGIN`, the body, `COMMIT`.
    ///
    /// When `body` throws, or the commit fails, the transaction rolls back whole and the error is rethrown.
    ///
    /// With change capture, the write returns once its change has reached every ``changes()`` subscriber,
    /// so `controller.sync()` afterwards sees it: the trigger feed publishes it when the transaction's end marker
    /// arrives, the logical feed when it reads the transaction's commit from the log (a write that changed no
    /// row returns at once). When the feed cannot publish it in time — its server
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
        let marker: CommitMarker? =
            switch source {
            case let listener as PostgresListener: .notify(channel: options.channel, listener.completions)
            case let feed?: .logged(feed.completions)
            case nil: nil
            }
        let (result, transactionID): (T, Int64?)
        do {
            (result, transactionID) = try await writer.run { [compiler, logger] connection in
                try PostgresStore.transaction(on: connection, compiler: compiler, logger: logger, marker: marker, body)
            }
        } catch let error as FetchKitError where error.code == .busy && error.message.contains("NOTIFY queue") {
            // The trigger feed cannot notify: the listener checks its connection (reporting `.stalled`), and a
            // reconnection terminates its abandoned session, the usual reason the queue does not drain.
            source?.checkConnection()
            throw error
        }
        // With change capture, return once the feed has published this transaction's change: a controller that
        // syncs after the write sees it, as with SQLite.
        if let source, let transactionID { await waitUntilPublished(transactionID, by: source) }
        return result
    }

    /// How a write's transaction is recognised when its change is published.
    enum CommitMarker {
        /// The trigger feed: the transaction notifies an end marker with its ID on `channel`.
        case notify(channel: String, TransactionCompletions)
        /// The logical feed: the log's commit carries the transaction's ID (its low 32 bits); a transaction
        /// that wrote nothing has none, and does not wait.
        case logged(TransactionCompletions)

        var completions: TransactionCompletions {
            switch self {
            case .notify(_, let completions), .logged(let completions): completions
            }
        }
    }

    /// Waits until the listener has published transaction `id` — or, when that is overdue
    /// (``ListenerOptions/publishTimeout``), until the listener has checked its connection and, finding it
    /// stalled, reconnected (publishing a resync) or started reconnecting; at most about
    /// `publishTimeout + pingTimeout` plus one reconnection attempt.
    private func waitUntilPublished(_ id: Int64, by listener: any PostgresChangeSource) async {
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

    /// The transaction boundary, on the writer thread. With a `marker`, the transaction registers its server
    /// transaction ID with the completions (for the trigger feed, notifying its end marker) and returns it.
    static func transaction<T>(
        on connection: PostgresConnection, compiler: SQLCompiler, logger: Logger, marker: CommitMarker?,
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
            let marked: PostgresResult? =
                switch marker {
                case .notify(let channel, _)?:
                    try connection.execute(
                        "SELECT txid_current() AS x, pg_notify($1, '{\"x\":' || txid_current() || ',\"end\":true}')",
                        [.text(channel)])
                case .logged?:
                    // NULL when the transaction wrote nothing (it has no ID, and the log no commit for it). The WAL
                    // sender reads only flushed log: the commit flushes at once rather than when the WAL writer
                    // next runs (up to 3 × wal_writer_delay with synchronous_commit = off), which the write would
                    // wait for anyway.
                    try connection.execute(
                        "SELECT txid_current_if_assigned() % 4294967296 AS x, "
                            + "set_config('synchronous_commit', 'on', true) AS durable")
                case nil: nil
                }
            if let marked, let marker, marked.rowCount == 1, case .integer(let id) = try marked.value(row: 0, column: 0)
            {
                transactionID = id
                marker.completions.expect(id)
            }
            do {
                try connection.run("COMMIT")
            } catch {
                if let transactionID { marker?.completions.cancel(transactionID) }
                throw error
            }
            if case .logged(let completions)? = marker, let transactionID {
                // A transaction whose commit the log carries without a change (a conflicting upsert, say) completes
                // when the feed has read past it.
                // The write has committed: a failure here only leaves it waiting for its transaction ID alone.
                do {
                    let end = try connection.execute("SELECT pg_current_wal_insert_lsn()::text AS position")
                    if case .text(let text) = try end.value(row: 0, column: 0), let position = LogPosition(text) {
                        completions.committed(transactionID, before: position)
                    }
                } catch {
                    logger.info(
                        "could not read the log position after a commit; the write waits for its transaction alone",
                        metadata: ["error": "\(error)"])
                }
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
