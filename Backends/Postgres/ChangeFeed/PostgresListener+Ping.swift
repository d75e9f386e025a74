import CLibPQ
import FetchKit

extension PostgresListener.Loop {
    /// Sends `SELECT 1` without waiting for its answer (which ``pingAnswer(_:)`` reads along with the
    /// notifications); the failure when it cannot be sent, `nil` otherwise.
    ///
    /// A blocking `PQexec` would wait as long as the server process does — forever for one that is stopped
    /// (`SIGSTOP`) or stuck, while TCP keepalives, answered by the kernel, see nothing wrong.
    static func sendPing(_ handle: OpaquePointer) -> ListenerStateMachine.Event? {
        PQsendQuery(handle, "SELECT 1") == 1 ? nil : .pingFailed(PostgresConnection.message(PQerrorMessage(handle)))
    }

    /// The ping's answer among the input libpq has read: ``ListenerStateMachine/Event/pingAnswered``, its
    /// failure, or `nil` while it has not arrived whole.
    static func pingAnswer(_ handle: OpaquePointer) -> ListenerStateMachine.Event? {
        while PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else { return .pingAnswered }
            let status = PQresultStatus(result)
            PQclear(result)
            guard status == PGRES_TUPLES_OK else {
                return .pingFailed(PostgresConnection.message(PQerrorMessage(handle)))
            }
        }
        return nil
    }
}
