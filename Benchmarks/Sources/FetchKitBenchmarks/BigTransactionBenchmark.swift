@_spi(Benchmarks) import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation
import Synchronization

/// One big transaction against its own writes: `--rows` (100,000) single-row updates in one transaction,
/// written three ways in turn each round (the order rotating between rounds):
/// - `raw`: a prepared `UPDATE … SET score = ? WHERE id = ?` stepped once per row in `BEGIN … COMMIT`, on a bare
///   connection (sqlite3, or libpq with binary parameters) to a table of its own;
/// - `store`: `store.write { tx.update(…) }` for the same rows on a store with no controller;
/// - `live`: the same write on a store with `--controllers` (10,000) live controllers, controller k reading
///   `grp == k ORDER BY score`; every controller holds some of the rows written.
///
/// Reports per round the write call's time (per row too), the CPU per changed row, and for `live` each controller's
/// delivery of that transaction (from the commit to its delegate: p50, p99, max) and when the last one applied it.
/// Every live controller must then equal a fresh fetch (checked outside the timed phase). Budgets (medians over
/// the rounds; exit 1 when exceeded): `store` within 2× `raw`, `live`'s write call within 1.3× `store`'s, delivery
/// p99 ≤ 1 s.
///
///   fetchkit-benchmarks bigtx [--rows 100000] [--controllers 10000] [--rounds 3] [--postgres]
enum BigTransactionBenchmark {
    struct Settings {
        var rows = 100_000
        var controllers = 10_000
        var rounds = 3
        var postgres = false
        var feed = PostgresStore.ChangeFeedKind.triggers
    }

    static let item = Entity(
        "Item", table: "items", primaryKey: .integer("id"),
        attributes: [
            Attribute("grp", .integer, indexed: true), Attribute("score", .double, indexed: true),
            Attribute("name", .text)
        ])

    /// Records when each controller applied a batch of the watched transaction.
    final class Arrivals: ResultsControllerDelegate, @unchecked Sendable {
        // @unchecked: each slot is written by the one caller that claimed it, and read after the run.
        private let slots: UnsafeMutableBufferPointer<ContinuousClock.Instant>
        private let next = Atomic<Int>(0)
        let watched = Atomic<UInt64>(.max)

        init(capacity: Int) { slots = .allocate(capacity: capacity) }
        deinit { slots.deallocate() }

        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            let now = ContinuousClock.now
            guard let transaction = update.transactionID, transaction >= watched.load(ordering: .relaxed) else {
                return
            }
            let slot = next.wrappingAdd(1, ordering: .relaxed).oldValue
            if slot < slots.count { slots[slot] = now }
        }

        func reset(watching transaction: UInt64) {
            next.store(0, ordering: .relaxed)
            watched.store(transaction, ordering: .relaxed)
        }

        var instants: [ContinuousClock.Instant] {
            Array(slots.prefix(min(next.load(ordering: .acquiring), slots.count)))
        }
    }

    static func run(_ settings: Settings) async throws -> Bool {
        let schema = try Schema([item])
        let tableRows = settings.rows * 2
        let groups = settings.controllers
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-bigtx-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = ProcessInfo.processInfo.environment["DATABASE_URL"]
        if settings.postgres && url == nil {
            print("bigtx: DATABASE_URL is not set; run: eval \"$(bash Integration/scripts/pg-start.sh)\"")
            return false
        }
        let pid = ProcessInfo.processInfo.processIdentifier

        func open(_ name: String) async throws -> any PersistentStore {
            if let url, settings.postgres {
                let raw = try RawConnection(url)
                try raw.exec("DROP SCHEMA IF EXISTS \(name) CASCADE; CREATE SCHEMA \(name)")
                let scoped = try PostgresURL(
                    url + (url.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(name)")
                return try await PostgresStore.open(
                    url: scoped, schema: schema, options: .init(readerCount: 2, changeFeed: settings.feed))
            }
            return try await SQLiteStore.open(
                path: directory.appendingPathComponent("\(name).sqlite").path, schema: schema)
        }
        func fill(_ store: any PersistentStore) async throws {
            try await store.write { tx in
                for i in 0..<tableRows {
                    let group = i % groups
                    try tx.insert(
                        [
                            "id": .integer(Int64(i + 1)), "grp": .integer(Int64(group)),
                            "score": .double(Double(group) + Double(i / groups) / Double(tableRows / groups + 1)),
                            "name": .text("row \(i)")
                        ], into: "Item")
                }
            }
        }

        // The raw side's table: made and filled by a store, which then closes (the bare connection writes alone).
        let rawName = "fkbigraw_\(pid)"
        do {
            let filler = try await open(rawName)
            try await fill(filler)
            await filler.close()
        }
        let raw: RawWriter =
            if let url, settings.postgres {
                try RawWriter(postgres: url, schema: rawName)
            } else {
                try RawWriter(sqlite: directory.appendingPathComponent("\(rawName).sqlite").path)
            }
        let plain = try await open("fkbigplain_\(pid)")
        try await fill(plain)
        let live = try await open("fkbiglive_\(pid)")
        try await fill(live)
        let arrivals = Arrivals(capacity: settings.controllers * 4)
        var controllers: [ResultsController<Row>] = []
        controllers.reserveCapacity(settings.controllers)
        for k in 0..<settings.controllers {
            let controller = ResultsController(
                store: live,
                request: FetchRequest(
                    entity: "Item", predicate: .key("grp") == Int64(k), sortDescriptors: [.ascending("score")]))
            controller.delegate = arrivals
            try await controller.performFetch()
            controllers.append(controller)
        }
        print(
            "bigtx: \(settings.rows) rows updated in one transaction (of \(tableRows)), \(settings.controllers) "
                + "controllers, \(settings.postgres ? "PostgreSQL (\(settings.feed.rawValue) feed)" : "SQLite")")

        var generator = SystemRandomNumberGenerator()
        func updates() -> [(Int64, Double)] {
            var ids = Set<Int64>()
            while ids.count < settings.rows { ids.insert(Int64.random(in: 1...Int64(tableRows), using: &generator)) }
            return ids.map { id in
                let group = Int((id - 1) % Int64(groups))
                return (id, Double(group) + Double.random(in: 0..<1, using: &generator) * 0.999_999)
            }
        }
        func storeWrite(_ store: any PersistentStore, _ rows: [(Int64, Double)]) async throws {
            try await store.write { tx in
                for (id, score) in rows { _ = try tx.update("Item", key: .integer(id), set: ["score": .double(score)]) }
            }
        }

        var rawCalls: [Double] = []
        var plainCalls: [Double] = []
        var liveCalls: [Double] = []
        var rawCPU: [Double] = []
        var plainCPU: [Double] = []
        var liveCPU: [Double] = []
        var p50s: [Double] = []
        var p99s: [Double] = []
        var maxima: [Double] = []
        var exact = true
        let clock = ContinuousClock()
        for round in 0..<settings.rounds {
            let sides = ["raw", "store", "live"]
            for offset in 0..<sides.count {
                let side = sides[(round + offset) % sides.count]
                let rows = updates()
                let cpuStart = processCPUTime()
                let start = clock.now
                switch side {
                case "raw":
                    try await raw.update(rows)
                    rawCalls.append(ms(clock.now - start))
                    rawCPU.append(ms(processCPUTime() - cpuStart))
                case "store":
                    try await storeWrite(plain, rows)
                    plainCalls.append(ms(clock.now - start))
                    plainCPU.append(ms(processCPUTime() - cpuStart))
                default:
                    arrivals.reset(watching: live.lastTransactionID + 1)
                    try await storeWrite(live, rows)
                    let committed = clock.now
                    liveCalls.append(ms(committed - start))
                    for controller in controllers { await controller.sync() }
                    liveCPU.append(ms(processCPUTime() - cpuStart))
                    let delays = arrivals.instants.map { ms($0 - committed) }.sorted()
                    func percentile(_ p: Int) -> Double {
                        delays.isEmpty ? 0 : delays[min(delays.count - 1, delays.count * p / 100)]
                    }
                    p50s.append(percentile(50))
                    p99s.append(percentile(99))
                    maxima.append(delays.last ?? 0)
                    // Every controller whose group holds a written row gets one batch of the transaction.
                    let reached = Set(rows.map { Int(($0.0 - 1) % Int64(groups)) }).count
                    if delays.count != reached {
                        print("bigtx: \(delays.count) batches for the \(reached) controllers the write reached")
                        exact = false
                    }
                    // Outside the timed phase: every controller equals a fresh fetch.
                    for controller in controllers where try await !matchesFetch(controller, in: live) {
                        exact = false
                    }
                }
                print(String(format: "  round %d %-5@ write call %8.1f ms", round + 1, side, ms(clock.now - start)))
            }
        }
        controllers.removeAll()
        await live.close()
        await plain.close()
        raw.close()

        let perRow = { (values: [Double]) in values.map { $0 * 1_000 / Double(settings.rows) } }
        print(medianLine("raw write call, ms", rawCalls, "%.1f"))
        print(medianLine("store write call, ms (no controller)", plainCalls, "%.1f"))
        print(medianLine("store write call, ms (live controllers)", liveCalls, "%.1f"))
        print(medianLine("per row: raw, µs", perRow(rawCalls), "%.2f"))
        print(medianLine("per row: store, µs", perRow(plainCalls), "%.2f"))
        print(medianLine("CPU per changed row with the controllers' work, µs", perRow(liveCPU), "%.2f"))
        print(medianLine("CPU per changed row, store, µs", perRow(plainCPU), "%.2f"))
        print(medianLine("delivery p50, ms", p50s, "%.1f"))
        print(medianLine("delivery p99, ms", p99s, "%.1f"))
        print(medianLine("delivery max, ms", maxima, "%.1f"))
        let writeRatio = median(plainCalls) / max(median(rawCalls), 0.001)
        let liveRatio = median(liveCalls) / max(median(plainCalls), 0.001)
        let write = budget(writeRatio, limit: 2.0, "store / raw", "%.2f×")
        let held = budget(liveRatio, limit: 1.3, "live / store", "%.2f×")
        let tail = budget(median(p99s), limit: 1_000, "delivery p99", "%.0f ms")
        print(String(format: "  store / raw %.2f×", writeRatio) + write.verdict)
        print(String(format: "  live / store %.2f×", liveRatio) + held.verdict)
        print(String(format: "  delivery p99 %.0f ms", median(p99s)) + tail.verdict)
        print("  exact: \(exact ? "yes" : "NO")")
        return exact && write.met && held.met && tail.met
    }

    static func matchesFetch(_ controller: ResultsController<Row>, in store: any PersistentStore) async throws -> Bool {
        let fresh = try await store.fetch(controller.request.erased)
        return fresh.map { $0["id"] } == controller.fetchedObjects.map { $0["id"] }
            && fresh.map { $0["score"] } == controller.fetchedObjects.map { $0["score"] }
    }

    static func ms(_ duration: Duration) -> Double { Measurement.milliseconds(duration) }
}
