import FetchKitBackendKit
import Logging

// Every write goes through this file: the writer connection and the transaction boundaries
// (BEGIN IMMEDIATE, COMMIT, ROLLBACK) live here, so a change feed can hook the writer
// (update/commit/rollback hooks, an authorizer) and publish each committed batch in one place.

extension SQLiteStore {
    /// Runs `body` in one transaction on the writer thread: `BEGIN IMMEDIATE`, the body, `COMMIT`.
    ///
    /// When `body` throws, or the commit fails, the transaction rolls back whole and the error is
    /// rethrown. The body is synchronous, so a write cannot start another write.
    ///
    /// ```swift
    /// let todo = try await store.write { tx in
    ///     try tx.insert(Todo(title: "Ship it"))
    /// }
    /// ```
    ///
    /// - Throws: what `body` throws; ``FetchKitError/Code/busy`` when another process holds the
    ///   write lock past the busy timeout; ``FetchKitError/Code/storeFileMissing`` when the database file was
    ///   deleted or replaced since the store opened it (nothing is written); ``FetchKitError/closed`` after
    ///   ``close()``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T {
        try await WriteTrace.write(attributes: traceAttributes) { trace in
            try await writer.run { [compiler, logger, changeCollector, fileWatch] connection in
                try fileWatch?.verify(feed: changeCollector.feed)
                // The change is published on this thread at commit: it carries the write's trace.
                return try trace.bind {
                    try SQLiteStore.transaction(
                        on: connection, compiler: compiler, logger: logger, changes: changeCollector, body)
                }
            }
        }
    }

    /// What a write's span says of the store, in OpenTelemetry's database conventions.
    private var traceAttributes: [(String, WriteTrace.Value)] {
        [
            ("db.system.name", .string("sqlite")), ("db.namespace", .string(path ?? ":memory:")),
            ("fetchkit.store", .string(options.label))
        ]
    }

    /// The transaction boundary, on the writer thread.
    ///
    /// The change feed collects the transaction's row changes and publishes them after `COMMIT`
    /// returns (so a fetch on receipt sees them); a rollback drops them.
    static func transaction<T>(
        on connection: SQLiteConnection, compiler: SQLCompiler, logger: Logger, changes: SQLiteChangeCollector,
        _ body: (any WriteTransaction) throws -> T
    ) throws -> T {
        try connection.run("BEGIN IMMEDIATE")
        changes.didBegin(on: connection)
        let transaction = SQLWriteTransaction(connection: connection, compiler: compiler)
        defer { transaction.end() }
        do {
            let result = try body(transaction)
            try transaction.finish()
            changes.willCommit(on: connection)
            try connection.run("COMMIT")
            changes.didCommit(on: connection)
            return result
        } catch {
            rollBack(connection, after: error, logger: logger)
            changes.didFail(on: connection)
            throw error
        }
    }

    /// Rolls back the open transaction, if SQLite has not already.
    private static func rollBack(_ connection: SQLiteConnection, after error: any Error, logger: Logger) {
        logger.debug("write rolled back", metadata: ["error": "\(error)"])
        guard connection.isInTransaction else { return }
        do {
            try connection.run("ROLLBACK")
        } catch {
            // Debug: the write's own error is thrown; SQLite rolls the transaction back when the connection closes.
            logger.debug("rollback failed", metadata: ["error": "\(error)"])
        }
    }
}
