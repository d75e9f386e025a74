import FetchKit
import Foundation
import Synchronization
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitSQLite

@Suite("Connection threads and pools")
struct ConnectionPoolTests {
    private static func memory() throws -> SQLiteConnection {
        try SQLiteConnection.open(
            .init(path: nil, readOnly: false, busyTimeoutMilliseconds: 100, statementCacheCapacity: 8))
    }

    @Test("jobs run on the thread that opened the connection, one after another on a pool of one")
    func dedicatedThread() async throws {
        let openers = ThreadRecorder()
        let pool = try await ConnectionPool<SQLiteConnection>.start(name: "fkt-writer", size: 1) { _ in
            openers.record()
            return try Self.memory()
        }
        let runners = ThreadRecorder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { try await pool.run { _ in runners.record() } }
            }
            try await group.waitForAll()
        }
        #expect(openers.threads.count == 1)
        #expect(runners.threads.count == 8)
        let opener = try #require(openers.threads.first)
        let onOpener = runners.threads.allSatisfy { $0.isSame(opener) }
        #expect(onOpener)
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

    @Test("a pool of several threads runs jobs concurrently, each with its own connection")
    func concurrentReaders() async throws {
        let pool = try await ConnectionPool<SQLiteConnection>.start(name: "fkt-reader", size: 3) { _ in
            try Self.memory()
        }
        let arrived = Counter()
        let results = try await withThrowingTaskGroup(of: (ObjectIdentifier, Bool).self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await pool.run { connection in
                        // A barrier: each job waits until all three run at once (or gives up after 5 s).
                        arrived.increment()
                        let deadline = Date().addingTimeInterval(5)
                        while arrived.value < 3 && Date() < deadline {
                            Thread.sleep(forTimeInterval: 0.001)
                        }
                        return (ObjectIdentifier(connection), arrived.value == 3)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.1 })
        #expect(Set(results.map(\.0)).count == 3)
        await pool.shutDown()
    }

    @Test("after shut down jobs throw closed; a job thrown error reaches the caller")
    func closedAndErrors() async throws {
        let pool = try await ConnectionPool<SQLiteConnection>.start(name: "fkt-closed", size: 1) { _ in
            try Self.memory()
        }
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
            _ = try await ConnectionPool<SQLiteConnection>.start(name: "fkt-bad", size: 2) { _ in
                try SQLiteConnection.open(
                    .init(
                        path: "/nonexistent-dir-\(UUID().uuidString)/db.sqlite", readOnly: false,
                        busyTimeoutMilliseconds: 10, statementCacheCapacity: 1))
            }
        }
    }
}

/// A count shared between threads.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The threads that called ``record()``.
private final class ThreadRecorder: Sendable {
    struct ThreadID: Sendable {
        let id: pthread_t
        func isSame(_ other: ThreadID) -> Bool { pthread_equal(id, other.id) != 0 }
    }

    private let recorded = Mutex<[ThreadID]>([])
    func record() { recorded.withLock { $0.append(ThreadID(id: pthread_self())) } }
    var threads: [ThreadID] { recorded.withLock { $0 } }
}
