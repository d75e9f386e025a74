import CLibPQBench
import FetchKit
import FetchKitPostgres
import Foundation
import Synchronization

/// FetchKit over PostgreSQL (loopback), against the server `DATABASE_URL` names (start one with
/// `eval "$(bash Integration/scripts/pg-start.sh)"`):
/// - commit-to-delegate latency: another client (a bare libpq connection, as another app instance would)
///   commits a single-row update; the clock starts when its `COMMIT` returns and stops when a live
///   controller's delegate receives the batch (trigger → NOTIFY → listener → re-read → delegate);
/// - fetching 100k rows into records, against a raw libpq loop (binary results, the same six columns into a
///   struct) in the same run;
/// - write throughput (single-row insert transactions through the store) with and without FetchKit's
///   change-capture triggers, in the same run.
enum PostgresBenchmark {
    static func run(rows: Int, samples: Int, iterations: Int, writes: Int) async throws {
        guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
            print("postgres: DATABASE_URL is not set; run: eval \"$(bash Integration/scripts/pg-start.sh)\"")
            exit(2)
        }
        let namespace = "fkbench_\(ProcessInfo.processInfo.processIdentifier)"
        let raw = try RawConnection(text)
        try raw.exec(
            "DROP SCHEMA IF EXISTS \(namespace) CASCADE; CREATE SCHEMA \(namespace); SET search_path = \(namespace)")
        let url = try PostgresURL(text + (text.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(namespace)")
        let schema = try Schema([BenchRecord.entity])
        let store = try await PostgresStore.open(url: url, schema: schema, options: .init(readerCount: 2))
        try raw.exec(
            """
            INSERT INTO bench (id, name, score, count, flag, created)
            SELECT g, 'row number ' || g, g * 0.5, g * 7, g % 2 = 0, timestamptz '2023-11-14 22:13:20+00' + g * \
            interval '1 microsecond'
            FROM generate_series(1, \(rows)) AS g
            """)
        print("postgres: loopback, \(rows) rows, release build, same run")
        try await latency(store: store, raw: raw, rows: rows, samples: samples)
        try await fetch(store: store, raw: raw, rows: rows, iterations: iterations)
        await store.close()
        try await throughput(url: url, schema: schema, writes: writes)
        try raw.exec("DROP SCHEMA \(namespace) CASCADE")
    }

    /// Hands each batch's arrival time to the benchmark.
    final class Delegate: ResultsControllerDelegate, Sendable {
        let arrivals: AsyncStream<ContinuousClock.Instant>.Continuation
        init(_ arrivals: AsyncStream<ContinuousClock.Instant>.Continuation) { self.arrivals = arrivals }
        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            arrivals.yield(ContinuousClock.now)
        }
    }

    static func latency(store: PostgresStore, raw: RawConnection, rows: Int, samples: Int) async throws {
        let controller = ResultsController(
            store: store, request: FetchRequest(entity: BenchRecord.entity.name, sortDescriptors: [.ascending("score")])
        )
        let (arrivals, continuation) = AsyncStream.makeStream(of: ContinuousClock.Instant.self)
        let delegate = Delegate(continuation)
        controller.delegate = delegate
        try await controller.performFetch()
        var iterator = arrivals.makeAsyncIterator()
        var generator = SystemRandomNumberGenerator()
        var latencies: [Duration] = []
        for step in 0..<(samples + 5) {
            let id = Int.random(in: 1...rows, using: &generator)
            let score = Double.random(in: 0..<Double(rows) * 0.5, using: &generator) + Double(step) * 1e-9
            let committed = try await raw.onThread { connection in
                try connection.exec("BEGIN; UPDATE bench SET score = \(score) WHERE id = \(id)")
                try connection.exec("COMMIT")
                return ContinuousClock.now
            }
            guard let arrival = await iterator.next() else { throw CancellationError() }
            if step >= 5 { latencies.append(arrival - committed) }
        }
        controller.delegate = nil
        print(
            line("commit-to-delegate (another client's commit)", latencies)
                + "   incremental \(controller.statistics.incrementalUpdates), refetches "
                + "\(controller.statistics.fullRefreshes)"
        )
    }

    static func fetch(store: PostgresStore, raw: RawConnection, rows: Int, iterations: Int) async throws {
        var byName: [Duration] = []
        var byPosition: [Duration] = []
        var baseline: [Duration] = []
        let request = FetchRequest(BenchRecord.self, sortDescriptors: [.ascending("id")]).erased
        for _ in 0..<iterations {
            var start = ContinuousClock.now
            let named = try await store.fetch(request, as: BenchRowRecord.self)
            byName.append(ContinuousClock.now - start)
            precondition(named.count == rows)
            start = ContinuousClock.now
            let positional = try await store.fetch(BenchEntityRecord.byID)
            byPosition.append(ContinuousClock.now - start)
            precondition(positional.count == rows)
            start = ContinuousClock.now
            let count = try await raw.onThread { connection in try connection.fetchBench() }
            baseline.append(ContinuousClock.now - start)
            precondition(count == rows)
        }
        let theirs = median(baseline)
        for (name, times) in [("by name (RowDecodable)", byName), ("by position (@Entity)", byPosition)] {
            let ours = median(times)
            print(
                "fetch \(rows) rows into records \(name): "
                    + String(
                        format: "FetchKit %.1f ms, raw libpq loop %.1f ms, ratio %.2fx (medians of %d)",
                        ms(ours), ms(theirs), ms(ours) / ms(theirs), iterations))
        }
    }

    static func throughput(url: PostgresURL, schema: Schema, writes: Int) async throws {
        var results: [(Bool, Double)] = []
        for capture in [false, true, false, true] {
            var options = PostgresStore.Options(readerCount: 1)
            options.changeCapture = capture
            let store = try await PostgresStore.open(url: url, schema: schema, options: options)
            if !capture { try await PostgresStore.uninstallChangeCapture(url: url, schema: schema) }
            let base = Int64(1_000_000 * (results.count + 1))
            let start = ContinuousClock.now
            for i in 0..<Int64(writes) {
                try await store.write { tx in
                    try tx.insert(
                        BenchRecord(
                            id: base + i, name: "w", score: 1, count: 1, flag: true,
                            created: Date(microsecondsSince1970: 0)))
                }
            }
            let elapsed = ContinuousClock.now - start
            results.append((capture, Double(writes) / (ms(elapsed) / 1_000)))
            await store.close()
        }
        let without = results.filter { !$0.0 }.map(\.1).reduce(0, +) / 2
        let with = results.filter { $0.0 }.map(\.1).reduce(0, +) / 2
        print(
            String(
                format: "writes (one-row insert transactions through the store, %d each run, two runs each): "
                    + "%.0f tx/s without change capture, %.0f tx/s with it (overhead %.0f %%)",
                writes, without, with, (without / with - 1) * 100))
    }

    static func line(_ name: String, _ samples: [Duration]) -> String {
        let sorted = samples.sorted()
        let p50 = ms(sorted[sorted.count / 2]) * 1_000
        let p99 = ms(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) * 1_000
        return name.padding(toLength: 46, withPad: " ", startingAt: 0)
            + String(format: " p50 %9.1f µs  p99 %9.1f µs  (%d samples)", p50, p99, samples.count)
    }

    static func median(_ samples: [Duration]) -> Duration { samples.sorted()[samples.count / 2] }
    static func ms(_ duration: Duration) -> Double { Measurement.milliseconds(duration) }
}

/// A bare libpq connection: the baseline loop and "another client". Its calls run on a thread of their own.
final class RawConnection: @unchecked Sendable {
    // @unchecked: used by one thread at a time (onThread waits for the job).
    let handle: OpaquePointer

    init(_ url: String) throws {
        guard let handle = PQconnectdb(url), PQstatus(handle) == CONNECTION_OK else {
            throw NSError(domain: "libpq", code: 1)
        }
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    func exec(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw NSError(domain: String(cString: PQerrorMessage(handle)), code: 2)
        }
    }

    /// The raw loop: the six columns of every row, binary, into a struct.
    func fetchBench() throws -> Int {
        let result = PQexecParams(
            handle, "SELECT id, name, score, count, flag, created FROM bench ORDER BY id",
            0, nil, nil, nil, nil, 1)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw NSError(domain: "fetch", code: 3) }
        func int64(_ row: Int32, _ column: Int32) -> Int64 {
            Int64(bigEndian: UnsafeRawPointer(PQgetvalue(result, row, column)).loadUnaligned(as: Int64.self))
        }
        var records: [BenchRecord] = []
        let count = PQntuples(result)
        records.reserveCapacity(Int(count))
        for row in 0..<count {
            let name = String(cString: PQgetvalue(result, row, 1))
            let flag = PQgetvalue(result, row, 4).pointee != 0
            records.append(
                BenchRecord(
                    id: int64(row, 0), name: name, score: Double(bitPattern: UInt64(bitPattern: int64(row, 2))),
                    count: int64(row, 3), flag: flag,
                    created: Date(microsecondsSince1970: int64(row, 5) + 946_684_800_000_000)))
        }
        return records.count
    }

    /// Runs `body` on a new thread (libpq blocks) and returns its result.
    func onThread<T: Sendable>(_ body: @escaping @Sendable (RawConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body(self) }) }.start()
        }
    }
}
