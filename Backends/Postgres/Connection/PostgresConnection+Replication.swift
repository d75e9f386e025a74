import CLibPQ
import FetchKit

extension PostgresConnection {
    /// What one read of a replication stream gave.
    enum CopyRead {
        /// One `CopyData` message.
        case data([UInt8])
        /// Nothing more until the socket is readable again.
        case wouldBlock
        /// The stream ended or failed, with the server's or libpq's message.
        case ended(String)
    }

    /// Opens a logical-replication connection (`replication=database`) to `url`.
    ///
    /// - Throws: ``LogicalFeedError/connection(_:)``'s reading of the failure (a role without `REPLICATION`,
    ///   `max_wal_senders` reached, …).
    static func openReplication(
        _ url: PostgresURL, extra: [(keyword: String, value: String)]
    ) throws -> PostgresConnection {
        do {
            let connection = try open(url, extra: extra + [("replication", "database")])
            // Its socket carries the stream: input while idle is no sign of a closing session.
            connection.checksIdleInput = false
            return connection
        } catch let error as FetchKitError {
            throw LogicalFeedError.connection(error, user: url.parameters.last { $0.keyword == "user" }?.value)
        }
    }

    /// Runs a replication command (simple query protocol, as a replication connection requires); its result.
    ///
    /// - Throws: ``LogicalFeedError/command(state:message:)``'s reading of the server's error.
    @discardableResult
    func replicationCommand(_ command: String) throws -> PostgresResult {
        let result = PostgresResult(try replicationResult(command))
        switch PQresultStatus(result.handle) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return result
        default: throw commandError(result)
        }
    }

    /// Sends `START_REPLICATION`: the connection then carries the stream both ways (`CopyBoth`).
    func startStreaming(_ command: String) throws {
        let result = PostgresResult(try replicationResult(command))
        guard PQresultStatus(result.handle) == PGRES_COPY_BOTH else { throw commandError(result) }
    }

    /// The next message of the stream, without blocking (call `PQconsumeInput` first).
    func readCopyData() -> CopyRead {
        var buffer: UnsafeMutablePointer<CChar>?
        let length = PQgetCopyData(handle, &buffer, 1)
        if length > 0, let buffer {
            defer { PQfreemem(buffer) }
            return .data(Array(UnsafeRawBufferPointer(start: buffer, count: Int(length))))
        }
        if length == 0 { return .wouldBlock }
        // -1: the stream ended (the server's reason is in the result that follows); -2: an error.
        var message = PostgresConnection.message(PQerrorMessage(handle))
        while let result = PQgetResult(handle) {
            if let text = PQresultErrorMessage(result), text.pointee != 0 {
                message = PostgresConnection.message(text)
            }
            PQclear(result)
        }
        return .ended(length == -1 && message.isEmpty ? "the server ended the replication stream" : message)
    }

    /// Sends one `CopyData` message and flushes it; `false` when the connection failed.
    func sendCopyData(_ bytes: [UInt8]) -> Bool {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        return sent == 1 && PQflush(handle) == 0
    }

    private func replicationResult(_ command: String) throws -> OpaquePointer {
        guard let result = PQexec(handle, command) else {
            throw FetchKitError.connectionLost(PostgresConnection.message(PQerrorMessage(handle)))
        }
        return result
    }

    private func commandError(_ result: PostgresResult) -> FetchKitError {
        let state = PQresultErrorField(result.handle, PostgresErrorMapping.Field.sqlState).map { String(cString: $0) }
        let primary =
            PQresultErrorField(result.handle, PostgresErrorMapping.Field.message).map { String(cString: $0) }
            ?? PostgresConnection.message(PQerrorMessage(handle))
        let detail = PQresultErrorField(result.handle, PostgresErrorMapping.Field.detail).map { String(cString: $0) }
        let message = detail.map { "\(primary) (\($0))" } ?? primary
        guard let state, !state.isEmpty else {
            return isConnected ? .database(code: 0, message: message, sql: nil) : .connectionLost(message)
        }
        return LogicalFeedError.command(state: state, message: message)
    }
}
