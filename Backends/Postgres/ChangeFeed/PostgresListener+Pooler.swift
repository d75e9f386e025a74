import CLibPQ
import FetchKitBackendKit

extension PostgresListener {
    /// Checks that `connection` — which has just issued `LISTEN` — keeps one server process for its whole
    /// session, as notifications need; throws when it goes through a transaction-mode pooler.
    ///
    /// A direct connection's server process is the one it announced when it connected (`PQbackendPID`), so
    /// that check costs one round trip. A pooler announces a process of its own making: then a second
    /// connection through the same URL holds a transaction open while this one asks again for its server
    /// process. A session-mode pooler keeps this session on its process; a transaction-mode pooler hands the
    /// process out to whoever comes next (the pinned transaction, most often) and serves this session
    /// elsewhere — where no `LISTEN` was issued and no notification will ever arrive.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` saying to point the listener at a direct connection.
    static func verifySessionIsPinned(
        _ connection: PostgresConnection, url: PostgresURL, extra: [(keyword: String, value: String)]
    ) throws {
        let first = try serverProcess(of: connection)
        guard first != connection.backendPID else { return }
        let other = try PostgresConnection.open(url, extra: extra)
        defer { other.close() }
        _ = try other.run("BEGIN")
        let pinned = try serverProcess(of: other)
        let again = try serverProcess(of: connection)
        _ = try? other.run("ROLLBACK")
        guard pinned != first, again == first else {
            throw FetchKitError.unsupported(
                "the change listener's connection (\(url.redacted)) goes through a transaction-mode pooler, which "
                    + "serves each transaction from another server process, so LISTEN cannot work; point the "
                    + "listener at a direct connection to the server (or a session-mode pool) with "
                    + "Options.listener.url (configuration key fetchkit.postgres.listenerURL)")
        }
    }

    /// The server process that runs `connection`'s next statement (`pg_backend_pid()`), asked with a simple
    /// query: a transaction-mode pooler loses the prepared statements of ``PostgresConnection/execute(_:_:)``.
    private static func serverProcess(of connection: PostgresConnection) throws -> Int32 {
        let result = try connection.run("SELECT pg_backend_pid()")
        guard result.rowCount == 1, let text = PQgetvalue(result.handle, 0, 0), let pid = Int32(String(cString: text))
        else { throw FetchKitError.database(code: 0, message: "pg_backend_pid() returned no integer", sql: nil) }
        return pid
    }
}
