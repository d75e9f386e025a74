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
        try await writer.run { [compiler, logger] connection in
            try PostgresStore.transaction(on: connection, compiler: compiler, logger: logger, body)
        }
    }

    /// The transaction boundary, on the writer thread.
    static func transaction<T>(
        on connection: PostgresConnection, compiler: SQLCompiler, logger: Logger,
        _ body: (any WriteTransaction) throws -> T
    ) throws -> T {
        try connection.run("BEGIN")
        let transaction = SQLWriteTransaction(connection: connection, compiler: compiler)
        defer { transaction.end() }
        do {
            let result = try body(transaction)
            try connection.run("COMMIT")
            return result
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
