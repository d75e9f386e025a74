import FetchKitBackendKit
import Logging

// Every write goes through this file: the writer connection and the transaction boundaries (BEGIN,
// COMMIT, ROLLBACK) live here.

extension PostgresStore {
    /// Runs `body` in one transaction on the writer thread: `BEGIN`, the body, `COMMIT`.
    ///
    /// When `body` throws, or the commit fails, the transaction rolls back whole and the error is rethrown.
    ///
    /// The write returns at commit; with change capture its change reaches ``changes()`` subscribers and live
    /// controllers shortly after, once the feed reads it (the trigger feed's end marker, the logical feed's
    /// commit in the log). A write never waits for that echo — under load the log can be seconds behind — so
    /// read-your-writes goes through `controller.sync()`, which waits for the change of every write returned
    /// before it (``waitForPublication()``):
    ///
    /// ```swift
    /// try await store.write { tx in try tx.insert(todo) }
    /// await controller.sync()   // the controller shows the insert
    /// ```
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
        let result: T
        do {
            (result, _) = try await FetchKitTracing.write(attributes: traceAttributes) { trace in
                try await writer.run { [compiler, logger] connection in
                    // The transaction registers the write's trace with its ID: the feed's change carries it.
                    try trace.bind {
                        try PostgresStore.transaction(
                            on: connection, compiler: compiler, logger: logger, marker: marker, body)
                    }
                }
            }
        } catch let error as FetchKitError where error.code == .busy && error.message.contains("NOTIFY queue") {
            // The trigger feed cannot notify: the listener checks its connection (reporting `.stalled`), and a
            // reconnection terminates its abandoned session, the usual reason the queue does not drain.
            source?.checkConnection()
            throw error
        }
        // The feed completes the transaction when it publishes it; `sync()` waits for that, not the write.
        return result
    }

    /// Waits until the change of every write that returned before this call has been published to
    /// ``changes()`` subscribers (and so to the change router): what `controller.sync()` waits for first.
    ///
    /// When that is overdue (``ListenerOptions/publishTimeout``), the feed checks its connection and, finding it
    /// stalled, reconnects, publishing a resync that covers those writes; the wait ends then, or at once while
    /// the feed is reconnecting (its controllers are not live meanwhile): at most about
    /// `publishTimeout + pingTimeout` plus one reconnection attempt. A feed that answers its check and still has
    /// not published them gets a resync of its own, so no controller stays behind a write without knowing it.
    public func waitForPublication() async {
        guard let source else { return }
        let written = source.completions.expected
        guard !written.isEmpty else { return }
        let options = options.listener
        if case .reconnecting = source.state {
            // The resync the feed publishes when it is back covers these writes.
            source.completions.forget(written)
            return
        }
        if await source.completions.wait(for: written, timeout: options.publishTimeout) { return }
        source.checkConnection()
        let recovery = options.pingTimeout + options.reconnectBackoff.lowerBound + .seconds(2)
        if await source.completions.wait(for: written, timeout: recovery) { return }
        source.completions.forget(written)
        // The feed answers its check yet has not published these writes (a notification lost on the way, a pooler
        // that dropped it): the controllers refetch rather than stay behind them without knowing it.
        changeFeed.publishResync()
        logger.info(
            "the change feed did not publish written transactions in time; resyncing",
            metadata: ["listener": "\(listenerStatus)", "transactions": "\(written.count)"])
    }

    /// What a write's span says of the store, in OpenTelemetry's database conventions.
    private var traceAttributes: [(String, TraceAttribute)] {
        var attributes: [(String, TraceAttribute)] = [
            ("db.system.name", .string("postgresql")), ("fetchkit.store", .string(options.label))
        ]
        for (keyword, value) in url.parameters {
            switch keyword {
            case "dbname": attributes.append(("db.namespace", .string(value)))
            case "host": attributes.append(("server.address", .string(value)))
            case "port": if let port = Int(value) { attributes.append(("server.port", .int(port))) }
            default: break
            }
        }
        return attributes
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
                marker.completions.expect(id, trace: .current)
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
                        completions.committed(transactionID, before: position.lastRecordEnd)
                    }
                } catch {
                    logger.debug(
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
                    // Debug: the write's own error is thrown; the server ends the transaction with the connection.
                    logger.debug("rollback failed", metadata: ["error": "\(error)"])
                }
            }
            throw error
        }
    }
}
