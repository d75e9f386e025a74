import CLibPQ
import FetchKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Connections get recycled under a long-running store: idle timeouts (`idle_session_timeout`), poolers,
// failover and a DBA's `pg_terminate_backend` close them while they sit in the pool. A connection is checked
// before each statement it runs outside a transaction, and reads are retried once on a fresh connection, so a
// recycled connection costs a reconnection, never a failed fetch.

extension PostgresConnection {
    /// Makes the connection ready for its next statement: opens it again (`PQreset`) when an earlier statement
    /// found it broken, or when — idle, outside a transaction — the server has sent something unasked (the
    /// notice that it is terminating the session) or closed the socket. Inside a transaction the session must
    /// stay: a connection that broke there fails every later statement of the transaction, until the one that
    /// ends it (`endingTransaction`), instead of running them on a new session outside it.
    ///
    /// The idle check is one non-blocking `poll()` on the socket.
    /// - Throws: ``FetchKitError/Code/connectionLost`` inside a broken transaction, or when the server still
    ///   cannot be reached.
    func ensureUsable(endingTransaction: Bool) throws {
        if endingTransaction { brokeInTransaction = false }
        guard !brokeInTransaction else {
            throw FetchKitError.connectionLost(
                "\(redactedURL): the connection broke during the transaction, which the server rolled back; "
                    + "run the write again")
        }
        if PQstatus(handle) == CONNECTION_OK {
            guard checksIdleInput, !isInTransaction, hasInputWhileIdle else { return }
        }
        try reopen()
    }

    /// Runs `body` — a read, which can run again harmlessly — and, when the connection broke under it outside
    /// a transaction, runs it once more on a fresh connection.
    ///
    /// - Throws: what the second attempt throws, or the first error when it was not a broken connection.
    func retryingOnce<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FetchKitError {
            guard error.code == .connectionLost, !isConnected, !brokeInTransaction else { throw error }
            return try body()
        }
    }

    /// Whether the idle socket is readable: a server that is closing the session sends an error and then
    /// closes it; a healthy idle session sends nothing (this connection does not `LISTEN`).
    private var hasInputWhileIdle: Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    /// Opens the connection again with the same parameters; prepared statements belonged to the old session.
    private func reopen() throws {
        preparedStatements.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw FetchKitError.connectionLost("\(redactedURL): \(Self.message(PQerrorMessage(handle)))")
        }
        reconnections += 1
    }
}
