@_spi(Backend) import FetchKit
import FetchKitFixtures
import Foundation

/// The isolation checks: a write is one transaction that raw SQL cannot end, readers never see it before it
/// commits, and concurrent writes run one after another.
extension StoreConformance {
    /// The isolation checks.
    static var isolationChecks: [Check] {
        [
            Check(
                name: "COMMIT or ROLLBACK through execute is refused and the write rolls back whole",
                body: { try await $0.checkTransactionControlRefused(on: $1) }),
            Check(
                name: "readers see the last committed state while a write runs, then the new state",
                body: { try await $0.checkReadersDuringWrite(on: $1) }),
            Check(
                name: "concurrent writes run one at a time and all commit",
                body: { try await $0.checkSerializedWrites(on: $1) })
        ]
    }

    private func todoCount(_ store: any PersistentStore) async throws -> Int {
        try await store.count(FetchRequest(entity: "Todo"))
    }

    func checkTransactionControlRefused(on store: any PersistentStore) async throws {
        for sql in ["COMMIT", "rollback", "END TRANSACTION", "BEGIN", "/* sneaky */ commit"] {
            do {
                try await store.write { tx in
                    try tx.insert(Fixtures.CategoryRecord(name: "half"))
                    try tx.execute(sql, [])
                }
                throw ConformanceFailure("\(sql) ran inside a write")
            } catch is FetchKitError {}
        }
        // Savepoints are SQL: a store that runs none refuses them with the rest (checkRawSQLRefused).
        guard store.dialect.runsSQL else { return }
        let kept = try await store.write { tx in
            try tx.execute("SAVEPOINT sp", [])
            try tx.insert(Fixtures.CategoryRecord(name: "undone"))
            try tx.execute("ROLLBACK TO SAVEPOINT sp", [])
            try tx.execute("RELEASE SAVEPOINT sp", [])
            return try tx.insert(Fixtures.CategoryRecord(name: "kept")).name
        }
        try ConformanceFailure.require(kept == "kept", "the write after a savepoint returned \(kept)")
        let names = try await store.fetch(FetchRequest(entity: "Category", sortDescriptors: [.ascending("id")]))
            .map { $0["name"] ?? .null }
        let expected = Fixtures.sampleCategories.map { Value.text($0.name) } + ["kept"]
        try ConformanceFailure.require(names == expected, "categories \(names)")
    }

    /// A write inserts "uncommitted" and deletes todo 1, holds its transaction open while six reads run,
    /// then inserts "last" and commits. Beside the write, reads see the state before it; on a store whose
    /// reads wait for writes, they see the state after it — a read of the open transaction would see
    /// "uncommitted" without "last", and fail either way.
    func checkReadersDuringWrite(on store: any PersistentStore) async throws {
        let (inside, insideSignal) = AsyncStream<Void>.makeStream()
        let proceed = DispatchSemaphore(value: 0)
        let write = Task {
            defer { insideSignal.finish() }
            return try await store.write { tx in
                try tx.insert(Fixtures.TodoRecord(title: "uncommitted"))
                try tx.delete("Todo", key: 1)
                insideSignal.yield()
                // Holds the transaction open on the writer's thread until the readers are done (every path
                // below signals); the bound only keeps a store whose reads wait for writes, while it says they
                // do not, from hanging the check — and is far above what readers take on a loaded machine.
                let held = proceed.wait(timeout: .now() + 120) == .success
                try tx.insert(Fixtures.TodoRecord(title: "last"))
                return (count: try tx.fetch(FetchRequest(entity: "Todo")).count, held: held)
            }
        }
        var iterator = inside.makeAsyncIterator()
        guard await iterator.next() != nil else {
            _ = try await write.value
            throw ConformanceFailure("the write ended before its transaction held its changes")
        }
        let readers = Task {
            try await withThrowingTaskGroup(of: [Value].self) { group in
                for _ in 0..<6 {
                    group.addTask { try await store.fetch(FetchRequest(entity: "Todo")).map { $0["title"] ?? .null } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        if !capabilities.concurrentReads {
            // The reads wait for the write: let them queue, then let the write go on.
            try await Task.sleep(for: .milliseconds(50))
            proceed.signal()
        }
        let seen: [[Value]]
        do {
            seen = try await readers.value
        } catch {
            proceed.signal()
            _ = try? await write.value
            throw error
        }
        proceed.signal()
        let (insideCount, held) = try await write.value
        try expect(
            held,
            "the reads beside the open write did not end within 120 s: a store whose reads wait for writes must "
                + "not claim concurrentReads")
        let before: Set<Value> = ["Write report"]
        let after: Set<Value> = ["uncommitted", "last"]
        let (present, absent, count) = capabilities.concurrentReads ? (before, after, 10) : (after, before, 11)
        for titles in seen {
            try expect(
                titles.count == count && present.isSubset(of: titles) && absent.isDisjoint(with: titles),
                "a reader saw \(titles) (\(capabilities.concurrentReads ? "beside the write" : "after the write"))")
        }
        try expect(insideCount == 11, "the write saw \(insideCount) rows of its own")
        let final = try await store.fetch(FetchRequest(entity: "Todo")).map { $0["title"] ?? .null }
        try expect(
            final.count == 11 && after.isSubset(of: final) && before.isDisjoint(with: final),
            "after the commit: \(final)")
    }

    func checkSerializedWrites(on store: any PersistentStore) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await store.write { tx in
                        let count = try tx.fetch(FetchRequest(entity: "Note")).count
                        try tx.insert(Fixtures.NoteRecord(slug: "n\(index)", body: "\(count)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let bodies = try await store.fetch(FetchRequest(Fixtures.NoteRecord.self), as: Fixtures.NoteRecord.self)
            .compactMap { Int($0.body) }.sorted()
        try ConformanceFailure.require(bodies == Array(0..<20), "each write saw the ones before it: \(bodies)")
    }
}
