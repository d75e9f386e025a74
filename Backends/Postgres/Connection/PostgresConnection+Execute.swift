import CLibPQ
import FetchKit
import FetchKitBackendKit

extension PostgresConnection {
    /// Runs `sql` with `bindings` as typed, binary parameters (`$1`, `$2`, …) and returns its result, read
    /// in binary.
    ///
    /// The statement is prepared once per connection and per parameter types, then executed by name.
    /// - Throws: the ``FetchKitError`` for the server's SQLSTATE (see ``PostgresErrorMapping``).
    @discardableResult
    func execute(_ sql: String, _ bindings: [Value] = []) throws -> PostgresResult {
        try ensureUsable(endingTransaction: false)
        let inTransaction = isInTransaction
        let parameters = try bindings.enumerated().map { try PostgresBinary.encode($1, parameter: $0 + 1) }
        let name = try prepared(sql, types: parameters.map(\.type), inTransaction: inTransaction)
        let buffers = parameters.map { parameter in
            parameter.bytes.map { bytes in
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
                bytes.withUnsafeBufferPointer { source in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: bytes.count)
                }
                return buffer
            }
        }
        defer {
            for buffer in buffers { buffer?.deallocate() }
        }
        let values = buffers.map { $0.map { UnsafePointer($0) } }
        let lengths = parameters.map { Int32($0.bytes?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result = PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        return try check(result, sql: sql, inTransaction: inTransaction)
    }

    /// Runs `sql`, which takes no parameters and may hold several statements (`BEGIN`, DDL, `LISTEN`), as
    /// text; returns the last statement's result.
    @discardableResult
    func run(_ sql: String) throws -> PostgresResult {
        try ensureUsable(endingTransaction: SQLText.controlsTransaction(sql))
        let inTransaction = isInTransaction
        return try check(PQexec(handle, sql), sql: sql, inTransaction: inTransaction)
    }

    /// The server-side name of `sql` prepared for parameters of `types`, preparing it on first use.
    private func prepared(_ sql: String, types: [Oid], inTransaction: Bool) throws -> String {
        let key = PreparedKey(sql: sql, types: types)
        if let name = preparedStatements[key] { return name }
        let name = "fk_\(preparedStatements.count + 1)"
        try check(PQprepare(handle, name, sql, Int32(types.count), types), sql: sql, inTransaction: inTransaction)
        preparedStatements[key] = name
        return name
    }

    /// `result` when it succeeded, else the error it carries (the result is cleared either way). A statement
    /// sent `inTransaction` that met a broken connection marks the connection ``brokeInTransaction``.
    @discardableResult
    private func check(_ result: OpaquePointer?, sql: String, inTransaction: Bool) throws -> PostgresResult {
        if inTransaction && !isConnected { brokeInTransaction = true }
        guard let result else {
            throw PostgresErrorMapping.connectionError(self, sql: sql)
        }
        let wrapped = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return wrapped
        default:
            throw PostgresErrorMapping.error(of: wrapped, connection: self, sql: sql)
        }
    }
}

extension PostgresConnection {
    /// Runs `body` between `BEGIN` and `COMMIT`; rolls back and rethrows when it throws.
    func inTransaction(_ body: () throws -> Void) throws {
        try run("BEGIN")
        do {
            try body()
            try run("COMMIT")
        } catch {
            if isConnected && isInTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }
}
