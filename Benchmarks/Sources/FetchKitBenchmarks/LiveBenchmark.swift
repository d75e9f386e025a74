@_spi(Benchmarks) import FetchKit
import FetchKitBackendKit
import FetchKitSQLite
import Foundation
import Synchronization

/// Commit-to-delegate latency of a live controller on SQLite: a single-row update is written; the clock starts
/// when the store publishes the committed change (`StoreChange.publishedAt`, right after COMMIT returns) and
/// stops when the controller's delegate receives the batch (`didApply`). The write's own round trip (call to
/// return, commit included) is reported beside it. The incremental path and the refetch + diff path are
/// measured one after the other on one controller, in the same run.
enum LiveBenchmark {
    /// Hands each batch's arrival time and transaction to the benchmark.
    final class Delegate: ResultsControllerDelegate, Sendable {
        let arrivals: AsyncStream<(ContinuousClock.Instant, UInt64?)>.Continuation

        init(_ arrivals: AsyncStream<(ContinuousClock.Instant, UInt64?)>.Continuation) { self.arrivals = arrivals }

        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            arrivals.yield((ContinuousClock.now, update.transactionID))
        }
    }

    /// When each transaction was published, by ID.
    final class PublishedTimes: Sendable {
        let times = Mutex<[UInt64: ContinuousClock.Instant]>([:])
    }

    static func run(rows: Int, samples: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-live-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteStore.open(
            path: directory.appendingPathComponent("live.sqlite").path, schema: try Schema([BenchRecord.entity]))
        try await store.write { tx in
            for i in 0..<rows {
                try tx.insert(
                    BenchRecord(
                        id: Int64(i + 1), name: "row number \(i)", score: Double(i) * 0.5, count: Int64(i * 7),
                        flag: i % 2 == 0, created: Date(microsecondsSince1970: 1_700_000_000_000_000 + Int64(i))))
            }
        }
        let controller = ResultsController(
            store: store, request: FetchRequest(entity: BenchRecord.entity.name, sortDescriptors: [.ascending("score")])
        )
        let (arrivals, continuation) = AsyncStream.makeStream(of: (ContinuousClock.Instant, UInt64?).self)
        // When each transaction was published, by ID (the change carries its own publication instant).
        let published = PublishedTimes()
        let changes = store.changes()
        let recorder = Task {
            for await change in changes { published.times.withLock { $0[change.transactionID] = change.publishedAt } }
        }
        defer { recorder.cancel() }
        let delegate = Delegate(continuation)
        controller.delegate = delegate
        try await controller.performFetch()
        var iterator = arrivals.makeAsyncIterator()

        var generator = SystemRandomNumberGenerator()
        var step = 0
        /// One single-row update that moves the row: commit-to-delegate and the write's round trip.
        func sample() async throws -> (latency: Duration, write: Duration) {
            step += 1
            let id = Int64.random(in: 1...Int64(rows), using: &generator)
            let score = Double.random(in: 0..<Double(rows) * 0.5, using: &generator) + Double(step) * 1e-9
            let start = ContinuousClock.now
            try await store.write { tx in try tx.update("Bench", key: .integer(id), set: ["score": .double(score)]) }
            let written = ContinuousClock.now
            guard let (arrival, transaction) = await iterator.next(), let transaction else { throw CancellationError() }
            var commit = published.times.withLock { $0[transaction] }
            while commit == nil {
                await Task.yield()
                commit = published.times.withLock { $0[transaction] }
            }
            return (arrival - commit!, written - start)
        }

        // One block per path: a refetch drops the cached sort keys, which the incremental path then encodes
        // once (the warm-up samples absorb that).
        controller.benchmarkUsesIncrementalPath = true
        for _ in 0..<5 { _ = try await sample() }
        var incremental: [Duration] = []
        var writes: [Duration] = []
        for _ in 0..<samples {
            let (latency, write) = try await sample()
            incremental.append(latency)
            writes.append(write)
        }
        controller.benchmarkUsesIncrementalPath = false
        for _ in 0..<5 { _ = try await sample() }
        var refetch: [Duration] = []
        for _ in 0..<samples { refetch.append(try await sample().latency) }
        controller.delegate = nil

        // The incremental path's own query, alone: one key re-read with the controller's predicate and order.
        var reread = controller.request
        var queries: [Duration] = []
        for _ in 0..<samples {
            let id = Int64.random(in: 1...Int64(rows), using: &generator)
            reread.predicate = .and([.constant(true), .comparison(.init(.object, .in, .list([.integer(id)])))])
            let start = ContinuousClock.now
            _ = try await store.fetch(reread)
            queries.append(ContinuousClock.now - start)
        }
        // Compiling that query alone (FetchKit's SQL compiler, no database).
        let compiler = SQLCompiler(schema: store.schema, dialect: store.dialect)
        var compiles: [Duration] = []
        for _ in 0..<samples {
            let start = ContinuousClock.now
            _ = try compiler.fetch(reread.erased)
            compiles.append(ContinuousClock.now - start)
        }
        await store.close()

        func line(_ name: String, _ samples: [Duration]) -> String {
            let sorted = samples.sorted()
            let p50 = Measurement.milliseconds(sorted[sorted.count / 2]) * 1_000
            let p99 = Measurement.milliseconds(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) * 1_000
            return name.padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(format: " p50 %10.1f µs  p99 %10.1f µs  (%d samples)", p50, p99, samples.count)
        }
        print("live: commit-to-delegate latency, single-row update, \(rows)-row SQLite controller")
        print(line("incremental (re-read changed keys + tree)", incremental))
        print(line("refetch + keyed diff (forced)", refetch))
        print(line("the write itself (call to return)", writes))
        print(line("the re-read query alone (one key)", queries))
        print(line("compiling that query alone", compiles))
    }
}
