import FetchKit
import Foundation
import Testing

@testable import FetchKitSQLite

@Suite("Connection threads and pools")
struct ConnectionPoolTests {
    private static func memory() throws -> SQLiteConnection {
        try SQLiteConnection.open(
            .init(path: nil, readOnly: false, busyTimeoutMilliseconds: 100, statementCacheCapacity: 8))
    }

    @Test("jobs run on the pool's own named threads, one after another on a pool of one")
    func dedicatedThread() async throws {
        let pool = try await ConnectionPool.start(name: "fkt-writer", size: 1) { _ in try Self.memory() }
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try await pool.run { _ in Thread.current.name ?? "" } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 8)
        #expect(names.allSatisfy { $0 == "fkt-writer-0" }, "\(names)")
        try await pool.run { connection in try connection.run("CREATE TABLE t (n INTEGER)") }
        for n in 0..<20 {
            try await pool.run { connection in try connection.run("INSERT INTO t VALUES (?)", [.integer(Int64(n))]) }
        }
        let order = try await pool.run { connection in
            try connection.withStatement("SELECT group_concat(n) FROM t") { statement in
                _ = try statement.step()
                return statement.text(at: 0)
            }
        }
        #expect(order == (0..<20).map(String.init).joined(separator: ","))
        await pool.shutDown()
    }

    @Test("a pool of several threads runs jobs concurrently")
    func concurrentReaders() async throws {
        let pool = try await ConnectionPool.start(name: "fkt-reader", size: 3) { _ in try Self.memory() }
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await pool.run { _ in
                        Thread.sleep(forTimeInterval: 0.05)
                        return Thread.current.name ?? ""
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names.count >= 2, "\(names)")
        await pool.shutDown()
    }

    @Test("after shut down jobs throw closed; a job thrown error reaches the caller")
    func closedAndErrors() async throws {
        let pool = try await ConnectionPool.start(name: "fkt-closed", size: 1) { _ in try Self.memory() }
        await #expect(throws: FetchKitError.self) {
            try await pool.run { connection in try connection.run("SELECT * FROM nowhere") }
        }
        await pool.shutDown()
        #expect(pool.isClosed)
        await #expect(throws: FetchKitError.closed) { try await pool.run { _ in 1 } }
        await pool.shutDown()
    }

    @Test("a connection that cannot open fails the pool's start")
    func openFailure() async throws {
        await #expect(throws: FetchKitError.self) {
            _ = try await ConnectionPool.start(name: "fkt-bad", size: 2) { _ in
                try SQLiteConnection.open(
                    .init(path: "/nonexistent-dir-\(UUID().uuidString)/db.sqlite", readOnly: false,
                          busyTimeoutMilliseconds: 10, statementCacheCapacity: 1))
            }
        }
    }
}
