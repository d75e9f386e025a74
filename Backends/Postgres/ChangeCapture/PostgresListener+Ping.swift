import CLibPQ
import FetchKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension PostgresListener {
    /// How a ping ended.
    enum PingOutcome {
        /// The server process answered: the connection works.
        case answered
        /// ``stop()`` was called meanwhile.
        case stopped
        /// No answer within ``PostgresStore/ListenerOptions/pingTimeout``, or the connection broke: why.
        case failed(String)
    }

    /// Sends `SELECT 1` and waits for its answer, at most ``PostgresStore/ListenerOptions/pingTimeout``, still
    /// reading notifications into `group` and watching for ``stop()``.
    ///
    /// A blocking `PQexec` would wait as long as the server process does — forever for one that is stopped
    /// (`SIGSTOP`) or stuck, while TCP keepalives, answered by the kernel, see nothing wrong.
    func ping(_ connection: PostgresConnection, group: inout TransactionGroup) -> PingOutcome {
        let handle = connection.handle
        guard PQsendQuery(handle, "SELECT 1") == 1 else {
            return .failed("ping failed: \(PostgresConnection.message(PQerrorMessage(handle)))")
        }
        let deadline = ContinuousClock.now + options.pingTimeout
        while true {
            if PQconsumeInput(handle) == 0 {
                return .failed("ping failed: \(PostgresConnection.message(PQerrorMessage(handle)))")
            }
            while PQisBusy(handle) == 0 {
                guard let result = PQgetResult(handle) else {
                    drain(connection, into: &group)
                    return .answered
                }
                let status = PQresultStatus(result)
                PQclear(result)
                guard status == PGRES_TUPLES_OK else {
                    return .failed("ping failed: \(PostgresConnection.message(PQerrorMessage(handle)))")
                }
            }
            drain(connection, into: &group)
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                return .failed("the server process did not answer a ping within \(options.pingTimeout) "
                    + "(stopped or stuck); opening a new connection")
            }
            var fds = [pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, max(Self.milliseconds(left), 1)) < 0 && errno != EINTR {
                return .failed("poll failed (errno \(errno))")
            }
            // A check asked for while pinging is this ping.
            if fds[1].revents != 0 && takeWake() { return .stopped }
        }
    }
}
