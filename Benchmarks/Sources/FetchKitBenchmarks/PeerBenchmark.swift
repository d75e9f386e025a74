@_spi(Benchmarks) import FetchKit
import FetchKitSQLite
import Foundation
import GRDB
import Synchronization

/// FetchKit against the peer a Swift developer would pick instead: GRDB.swift's `ValueObservation`, in the same
/// run, on the same data (a 100k-row SQLite table in a WAL file, each side its own file).
///
/// - N observed queries `grp == k ORDER BY score` (N = 1, 10, 100), single-row writes that each give row 1
///   (group 0) a new score: the time from the write call to the first notification of the affected observer
///   that shows the write, and CPU per write;
/// - one live 50k-row query (`grp < 2` of a 4-group table): the same figures.
enum PeerBenchmark {
    static func run(writes: Int) async throws {
        print(
            "peer: FetchKit ResultsController vs GRDB ValueObservation, SQLite WAL files, same run, \(writes) writes "
                + "each"
        )
        for observed in [1, 10, 100] {
            try await compare(groups: max(observed, 2), observed: observed, rows: 100_000, writes: writes)
        }
        try await compare(groups: 4, observed: 1, rows: 100_000, writes: writes, wide: true)
    }

    /// One case: `observed` live queries over `groups` groups (with `wide`, one query of groups 0 and 1).
    static func compare(groups: Int, observed: Int, rows: Int, writes: Int, wide: Bool = false) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-peer-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let label = wide ? "one live \(rows / 2)-row query" : "\(observed) observed queries"
        let ours = try await fetchKit(
            path: directory.appendingPathComponent("fk.sqlite").path, groups: groups,
            observed: observed, rows: rows, writes: writes, wide: wide)
        let theirs = try await grdb(
            path: directory.appendingPathComponent("grdb.sqlite").path, groups: groups,
            observed: observed, rows: rows, writes: writes, wide: wide)
        func show(_ name: String, _ result: (p50: Double, p99: Double, cpu: Double)) {
            print(
                String(
                    format: "  %@ %@: write→notification p50 %.2f ms, p99 %.2f ms; CPU per write %.0f µs",
                    label.padding(toLength: 26, withPad: " ", startingAt: 0), name, result.p50, result.p99, result.cpu))
        }
        show("FetchKit", ours)
        show("GRDB    ", theirs)
    }

    static func insertRows(_ rows: Int, groups: Int) -> [(Int64, Int64, Double, String)] {
        (0..<rows).map { i in (Int64(i + 1), Int64(i % groups), Double(i) / Double(rows), "row \(i)") }
    }

    static func summary(_ latencies: [Duration], cpu: Duration, writes: Int) -> (p50: Double, p99: Double, cpu: Double)
    {
        let sorted = latencies.sorted()
        return (
            Measurement.milliseconds(sorted[sorted.count / 2]),
            Measurement.milliseconds(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]),
            Measurement.milliseconds(cpu) * 1_000 / Double(writes)
        )
    }

    final class Arrivals: ResultsControllerDelegate, Sendable {
        let continuation: AsyncStream<ContinuousClock.Instant>.Continuation
        init(_ continuation: AsyncStream<ContinuousClock.Instant>.Continuation) { self.continuation = continuation }
        func controller(_ controller: ResultsController<FetchKit.Row>, didApply update: ResultsBatch<FetchKit.Row>) {
            continuation.yield(.now)
        }
    }

    static func fetchKit(path: String, groups: Int, observed: Int, rows: Int, writes: Int, wide: Bool) async throws
        -> (p50: Double, p99: Double, cpu: Double)
    {
        let store = try await SQLiteStore.open(
            path: path, schema: try Schema([ScaleBenchmark.item, ScaleBenchmark.other]))
        try await store.write { tx in
            for (id, group, score, name) in insertRows(rows, groups: groups) {
                try tx.insert(
                    ["id": .integer(id), "grp": .integer(group), "score": .double(score), "name": .text(name)],
                    into: "Item")
            }
        }
        let (stream, continuation) = AsyncStream.makeStream(of: ContinuousClock.Instant.self)
        let arrivals = Arrivals(continuation)
        var controllers: [ResultsController<FetchKit.Row>] = []
        for k in 0..<observed {
            let predicate: FetchPredicate = wide ? .key("grp") < 2 : .key("grp") == Int64(k)
            let controller = ResultsController(
                store: store,
                request: FetchRequest(entity: "Item", predicate: predicate, sortDescriptors: [.ascending("score")]))
            if k == 0 { controller.delegate = arrivals }
            try await controller.performFetch()
            controllers.append(controller)
        }
        var iterator = stream.makeAsyncIterator()
        var latencies: [Duration] = []
        let cpuStart = processCPUTime()
        for step in 0..<(writes + 10) {
            let score = Double(step + 1) / Double(writes + 11)
            let start = ContinuousClock.now
            _ = try await store.write { tx in try tx.update("Item", key: 1, set: ["score": .double(score)]) }
            guard let arrival = await iterator.next() else { break }
            if step >= 10 { latencies.append(arrival - start) }
        }
        let cpu = processCPUTime() - cpuStart
        controllers.removeAll()
        await store.close()
        return summary(latencies, cpu: cpu, writes: writes + 10)
    }

    static func grdb(path: String, groups: Int, observed: Int, rows: Int, writes: Int, wide: Bool) async throws
        -> (p50: Double, p99: Double, cpu: Double)
    {
        let pool = try DatabasePool(path: path)
        try await pool.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE items (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, score DOUBLE NOT NULL, name "
                    + "TEXT NOT NULL)"
            )
            try db.execute(sql: "CREATE INDEX items_grp ON items(grp)")
            try db.execute(sql: "CREATE INDEX items_score ON items(score)")
            for (id, group, score, name) in insertRows(rows, groups: groups) {
                try db.execute(sql: "INSERT INTO items VALUES (?, ?, ?, ?)", arguments: [id, group, score, name])
            }
        }
        // Arrivals of the first observation, with the score of row 1 they show (writes all go to row 1 with a
        // new score each, so an arrival is matched to the write it reflects; GRDB may coalesce and lag).
        let (stream, continuation) = AsyncStream.makeStream(of: (ContinuousClock.Instant, Double?).self)
        var cancellables: [AnyDatabaseCancellable] = []
        let queue = DispatchQueue(label: "grdb.observations")
        for k in 0..<observed {
            let sql =
                wide
                ? "SELECT * FROM items WHERE grp < 2 ORDER BY score, id"
                : "SELECT * FROM items WHERE grp = ? ORDER BY score, id"
            let arguments: StatementArguments = wide ? [] : [k]
            let observation = ValueObservation.tracking { db in
                try PeerItem.fetchAll(db, sql: sql, arguments: arguments)
            }
            let first = k == 0
            let ready = Mutex(false)
            cancellables.append(
                observation.start(
                    in: pool, scheduling: .async(onQueue: queue), onError: { print("grdb: \($0)") },
                    onChange: { items in
                        // The first value is the initial fetch; later ones are changes.
                        let now = ContinuousClock.now
                        if ready.withLock({
                            let was = $0
                            $0 = true
                            return was
                        }), first {
                            continuation.yield((now, items.first { $0.id == 1 }?.score))
                        }
                    }))
        }
        // Let every observation deliver its initial value.
        try await Task.sleep(for: .seconds(1))
        var iterator = stream.makeAsyncIterator()
        var latencies: [Duration] = []
        let cpuStart = processCPUTime()
        for step in 0..<(writes + 10) {
            let score = Double(step + 1) / Double(writes + 11)
            let start = ContinuousClock.now
            try await pool.write { db in
                try db.execute(sql: "UPDATE items SET score = ? WHERE id = 1", arguments: [score])
            }
            // The first notification that shows this write.
            while let (arrival, shown) = await iterator.next() {
                guard shown == score else { continue }
                if step >= 10 { latencies.append(arrival - start) }
                break
            }
        }
        let cpu = processCPUTime() - cpuStart
        cancellables.removeAll()
        return summary(latencies, cpu: cpu, writes: writes + 10)
    }
}

/// A row of the peer's table as GRDB decodes it (GRDB's own `Row` is not `Sendable`).
struct PeerItem: FetchableRecord, Decodable, Sendable {
    var id: Int64
    var grp: Int64
    var score: Double
    var name: String
}
