import CLibPQBench
import CSQLiteBench
import Foundation

/// The baseline of a big transaction: one prepared `UPDATE items SET score = ? WHERE id = ?`, stepped once per
/// row between `BEGIN` and `COMMIT` on a bare connection (sqlite3 with the store's pragmas, or libpq with binary
/// parameters), on a thread of its own.
final class RawWriter: @unchecked Sendable {
    // @unchecked: used by one thread at a time (each call waits for its job).
    private enum Connection {
        case sqlite(OpaquePointer)
        case postgres(OpaquePointer)
    }

    private let connection: Connection

    init(sqlite path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            throw NSError(domain: "sqlite3_open_v2 \(path)", code: 1)
        }
        connection = .sqlite(db)
        for pragma in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"] {
            try sqlite(db, pragma)
        }
    }

    init(postgres url: String, schema: String) throws {
        guard let handle = PQconnectdb(url), PQstatus(handle) == CONNECTION_OK else {
            throw NSError(domain: "libpq", code: 1)
        }
        connection = .postgres(handle)
        try postgres(handle, "SET search_path = \(schema)")
        let prepared = PQprepare(handle, "bigtx", "UPDATE items SET score = $1 WHERE id = $2", 2, nil)
        defer { PQclear(prepared) }
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else { throw NSError(domain: "PQprepare", code: 2) }
    }

    func close() {
        switch connection {
        case .sqlite(let db): sqlite3_close_v2(db)
        case .postgres(let handle): PQfinish(handle)
        }
    }

    /// Sets each row's score in one transaction.
    func update(_ rows: [(Int64, Double)]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread {
                continuation.resume(
                    with: Result {
                        switch self.connection {
                        case .sqlite(let db): try self.sqliteUpdate(db, rows)
                        case .postgres(let handle): try self.postgresUpdate(handle, rows)
                        }
                    })
            }.start()
        }
    }

    private func sqliteUpdate(_ db: OpaquePointer, _ rows: [(Int64, Double)]) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "UPDATE items SET score = ? WHERE id = ?", -1, &statement, nil) == SQLITE_OK
        else { throw NSError(domain: String(cString: sqlite3_errmsg(db)), code: 3) }
        defer { sqlite3_finalize(statement) }
        try sqlite(db, "BEGIN IMMEDIATE")
        for (id, score) in rows {
            sqlite3_bind_double(statement, 1, score)
            sqlite3_bind_int64(statement, 2, id)
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw NSError(domain: String(cString: sqlite3_errmsg(db)), code: 4)
            }
            sqlite3_reset(statement)
        }
        try sqlite(db, "COMMIT")
    }

    private func postgresUpdate(_ handle: OpaquePointer, _ rows: [(Int64, Double)]) throws {
        try postgres(handle, "BEGIN")
        var score = [UInt8](repeating: 0, count: 8)
        var id = [UInt8](repeating: 0, count: 8)
        let lengths: [Int32] = [8, 8]
        let formats: [Int32] = [1, 1]
        for (key, value) in rows {
            withUnsafeBytes(of: value.bitPattern.bigEndian) { score = Array($0) }
            withUnsafeBytes(of: UInt64(bitPattern: key).bigEndian) { id = Array($0) }
            let result = score.withUnsafeBufferPointer { scoreBytes in
                id.withUnsafeBufferPointer { idBytes in
                    let values: [UnsafePointer<CChar>?] = [
                        UnsafeRawPointer(scoreBytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                        UnsafeRawPointer(idBytes.baseAddress!).assumingMemoryBound(to: CChar.self)
                    ]
                    return PQexecPrepared(handle, "bigtx", 2, values, lengths, formats, 1)
                }
            }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw NSError(domain: String(cString: PQerrorMessage(handle)), code: 5)
            }
        }
        try postgres(handle, "COMMIT")
    }

    private func sqlite(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw NSError(domain: String(cString: sqlite3_errmsg(db)), code: 6)
        }
    }

    private func postgres(_ handle: OpaquePointer, _ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw NSError(domain: String(cString: PQerrorMessage(handle)), code: 7)
        }
    }
}
