@_spi(Benchmarks) import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation
import Synchronization

/// Thousands of live controllers on one store, as a server with one controller per connected client holds
/// them: N controllers over a 100k-row table, open-loop paced single-row writes for a bounded time, then a
/// drain. Reports achieved writes/s, commit→delegate p50/p99 over the affected controllers, CPU per write,
/// RSS per controller, and how many controllers did work per write.
///
/// Variants (`--variant`):
/// - `grp`: controller k = `grp == k ORDER BY score`; each write sets a new score on one random row, so
///   exactly one controller is affected;
/// - `shared`: every controller has the same request (`grp == 0`); each write changes a row of group 0, so
///   all are affected;
/// - `scan`: controller k = `score >= k AND score < k + 1 AND name BEGINSWITH 'row'` — no equality conjunct
///   to index; each write moves a row within one controller's band;
/// - `range`: controller k = `score BETWEEN {k, k + 0.999999}`, each its own range; each write moves a row within
///   one controller's band;
/// - `topn`: controller k = `grp == k ORDER BY score LIMIT 20` (a window; `--rows 500000` for 50 rows a group);
/// - `unrelated`: the writes go to a table no controller reads;
/// - `clients`: `--controllers` clients over `--requests` distinct requests (`grp == k % requests`, default a
///   tenth of the clients): the clients of one request share its results, as a server's do;
/// - `tomany`: controller k = `id == k AND ANY children.priority > 3` over `parents` (one per controller), each
///   write sets a random child's priority (`--rows` children, child i of parent i % controllers);
/// - `tomanycount`: controller k = `id == k AND children.@count > 2`, each write moves a random child to a random
///   parent (with `--rows` three times the controllers, each parent starts with three children).
///
/// `--batch B` writes B random rows per transaction (one `UPDATE` of B rows on PostgreSQL), at `--rate`
/// transactions a second; the write call's own time is reported beside the deliveries.
///
/// SQLite writes go through the store; PostgreSQL writes come from another client connection (libpq), and
/// the clock starts when its COMMIT returns.
enum ScaleBenchmark {
    static let item = Entity(
        "Item", table: "items", primaryKey: .integer("id"),
        attributes: [
            Attribute("grp", .integer, indexed: true), Attribute("score", .double, indexed: true),
            Attribute("name", .text)
        ])
    static let other = Entity(
        "Other", table: "others", primaryKey: .integer("id"), attributes: [Attribute("value", .integer)])

    enum Variant: String, CaseIterable {
        case grp, shared, scan, range, topn, unrelated, clients, tomany, tomanycount

        /// Whether the controllers read parents through their children.
        var isToMany: Bool { self == .tomany || self == .tomanycount }
    }

    static let parent = Entity(
        "Parent", table: "parents", primaryKey: .integer("id"), attributes: [Attribute("name", .text)],
        relationships: [.toMany("children", to: "Child", inverse: "parent")])
    static let child = Entity(
        "Child", table: "children", primaryKey: .integer("id"),
        attributes: [Attribute("parentID", .integer, indexed: true), Attribute("priority", .integer)],
        relationships: [.toOne("parent", to: "Parent", foreignKey: "parentID")])

    /// Records every batch's arrival: (transaction, instant), into a buffer claimed slot by slot with an
    /// atomic counter, so that recording does not serialize the deliveries it measures.
    final class Recorder: ResultsControllerDelegate, @unchecked Sendable {
        // @unchecked: each slot is written by the one caller that claimed it, and read after the run.
        private let slots: UnsafeMutableBufferPointer<(UInt64, ContinuousClock.Instant)>
        private let next = Atomic<Int>(0)

        init(capacity: Int) {
            slots = .allocate(capacity: capacity)
        }

        deinit { slots.deallocate() }

        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            let now = ContinuousClock.now
            guard let transaction = update.transactionID else { return }
            let slot = next.wrappingAdd(1, ordering: .relaxed).oldValue
            if slot < slots.count { slots[slot] = (transaction, now) }
        }

        var arrivals: [(UInt64, ContinuousClock.Instant)] {
            Array(slots.prefix(min(next.load(ordering: .acquiring), slots.count)))
        }
    }

    struct Settings {
        var controllers: Int
        var rate: Int
        var seconds: Int
        var variant: Variant
        var postgres: Bool
        var rows = 100_000
        /// Rows written per transaction.
        var batch = 1
        /// Distinct requests of the `clients` variant (0: a tenth of the controllers).
        var requests = 0
        /// The PostgreSQL store's change feed.
        var feed = PostgresStore.ChangeFeedKind.triggers
    }

    static func run(_ settings: Settings) async throws {
        let schema = try Schema([item, other, parent, child])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-scale-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any PersistentStore
        var raw: RawConnection?
        var namespace = ""
        if settings.postgres {
            guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
                print("scale: DATABASE_URL is not set; run: eval \"$(bash Integration/scripts/pg-start.sh)\"")
                exit(2)
            }
            namespace = "fkscale_\(ProcessInfo.processInfo.processIdentifier)"
            let connection = try RawConnection(text)
            try connection.exec(
                "DROP SCHEMA IF EXISTS \(namespace) CASCADE; CREATE SCHEMA \(namespace); SET search_path = \(namespace)"
            )
            let url = try PostgresURL(
                text + (text.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(namespace)")
            store = try await PostgresStore.open(
                url: url, schema: schema, options: .init(readerCount: 2, changeFeed: settings.feed))
            raw = connection
        } else {
            store = try await SQLiteStore.open(
                path: directory.appendingPathComponent("scale.sqlite").path, schema: schema)
        }
        let n = settings.controllers
        let rows = settings.rows
        // The groups rows belong to: one per controller, or per distinct request of the clients variant.
        let groups = settings.variant == .clients ? (settings.requests > 0 ? settings.requests : max(1, n / 10)) : n
        // Row i: grp i % groups, score in its group's band (scan variant: band k = [k, k + 1)).
        try await store.write { tx in
            if settings.variant.isToMany {
                for k in 0..<n {
                    try tx.insert(["id": .integer(Int64(k)), "name": .text("parent \(k)")], into: "Parent")
                }
                for i in 0..<rows {
                    try tx.insert(
                        [
                            "id": .integer(Int64(i + 1)), "parentID": .integer(Int64(i % n)),
                            "priority": .integer(Int64(i % 4))
                        ], into: "Child")
                }
            } else {
                for i in 0..<rows {
                    let group = i % groups
                    try tx.insert(
                        [
                            "id": .integer(Int64(i + 1)), "grp": .integer(Int64(group)),
                            "score": .double(Double(group) + Double(i / groups) / Double(rows / groups + 1)),
                            "name": .text("row \(i)")
                        ], into: "Item")
                }
            }
            try tx.insert(["id": 1, "value": 0], into: "Other")
        }
        let rssBefore = residentBytes()
        let recorder = Recorder(
            capacity: settings.variant == .shared || settings.variant == .clients
                ? settings.rate * (settings.seconds + 6) * (settings.variant == .shared ? n : n / groups + 1)
                    * settings.batch
                : settings.rate * (settings.seconds + 6) * 2 * min(settings.batch, n))
        var controllers: [ResultsController<Row>] = []
        controllers.reserveCapacity(n)
        for k in 0..<n {
            let predicate: FetchPredicate
            switch settings.variant {
            case .grp, .unrelated: predicate = .key("grp") == Int64(k)
            case .shared: predicate = .key("grp") == 0
            case .scan:
                predicate = try FetchPredicate(
                    format: "score >= %@ AND score < %@ AND name BEGINSWITH 'row'",
                    argumentArray: [Double(k), Double(k + 1)])
            case .range:
                predicate = try FetchPredicate(
                    format: "score BETWEEN %@", argumentArray: [[Double(k), Double(k) + 0.999_999]])
            case .topn: predicate = .key("grp") == Int64(k)
            case .clients: predicate = .key("grp") == Int64(k % groups)
            case .tomany:
                predicate = try FetchPredicate(format: "id == %@ AND ANY children.priority > 3", argumentArray: [k])
            case .tomanycount:
                predicate = try FetchPredicate(format: "id == %@ AND children.@count > 2", argumentArray: [k])
            }
            var request =
                settings.variant.isToMany
                ? FetchRequest(entity: "Parent", predicate: predicate, sortDescriptors: [.ascending("name")])
                : FetchRequest(entity: "Item", predicate: predicate, sortDescriptors: [.ascending("score")])
            if settings.variant == .topn { request.fetchLimit = 20 }
            let controller = ResultsController(store: store, request: request)
            controller.delegate = recorder
            try await controller.performFetch()
            controllers.append(controller)
        }
        let rssAfter = residentBytes()

        // When each transaction was published (SQLite: right after COMMIT returns).
        let published = Mutex<[UInt64: ContinuousClock.Instant]>([:])
        let changes = store.changes()
        let watcher = Task {
            for await change in changes { published.withLock { $0[change.transactionID] = change.publishedAt } }
        }
        let firstTransaction = store.lastTransactionID
        let committed = Mutex<[ContinuousClock.Instant]>([])

        var generator = SystemRandomNumberGenerator()
        let interval = Duration.seconds(1) / settings.rate
        let total = settings.rate * settings.seconds
        let clock = ContinuousClock()
        let cpuStart = processCPUTime()
        let start = clock.now
        var written = 0
        var expected = 0
        var writeCalls: [Duration] = []
        writeCalls.reserveCapacity(total)
        for index in 0..<total {
            let due = start + interval * index
            if clock.now < due { try await Task.sleep(until: due, clock: clock) }
            if clock.now - start > .seconds(settings.seconds) + .seconds(5) { break }
            var updates: [Int64: Double] = [:]
            while updates.count < settings.batch {
                let id: Int64
                switch settings.variant {
                case .shared: id = Int64(Int.random(in: 0..<(rows / n), using: &generator) * n + 1)
                default: id = Int64.random(in: 1...Int64(rows), using: &generator)
                }
                let group = Int((id - 1) % Int64(groups))
                updates[id] =
                    switch settings.variant {
                    case .shared: Double.random(in: 0..<1, using: &generator)
                    case .tomany: Double(Int.random(in: 0...5, using: &generator))
                    case .tomanycount: Double(Int.random(in: 0..<n, using: &generator))
                    default: Double(group) + Double.random(in: 0..<1, using: &generator) * 0.999_999
                    }
            }
            switch settings.variant {
            case .unrelated: break
            case .shared: expected += n
            case .clients: expected += Set(updates.keys.map { ($0 - 1) % Int64(groups) }).count * (n / groups)
            default: expected += Set(updates.keys.map { ($0 - 1) % Int64(groups) }).count
            }
            let callStart = clock.now
            if let raw {
                let values = updates.map { "(\($0.key), \($0.value))" }.joined(separator: ", ")
                let sql =
                    switch settings.variant {
                    case .unrelated: "UPDATE \(namespace).others SET value = value + 1 WHERE id = 1"
                    case .tomany:
                        "UPDATE \(namespace).children AS c SET priority = v.p::bigint FROM (VALUES \(values)) "
                            + "AS v(id, p) WHERE c.id = v.id"
                    case .tomanycount:
                        "UPDATE \(namespace).children AS c SET \"parentID\" = v.p::bigint FROM (VALUES \(values)) "
                            + "AS v(id, p) WHERE c.id = v.id"
                    default:
                        "UPDATE \(namespace).items AS i SET score = v.s FROM (VALUES \(values)) AS v(id, s) "
                            + "WHERE i.id = v.id"
                    }
                try await raw.onThread { connection in try connection.exec(sql) }
                committed.withLock { $0.append(clock.now) }
            } else if settings.variant == .unrelated {
                _ = try await store.write { tx in try tx.update("Other", key: 1, set: ["value": .integer(Int64(index))])
                }
            } else {
                let updates = updates
                let variant = settings.variant
                _ = try await store.write { tx in
                    for (id, score) in updates {
                        if variant == .tomanycount {
                            try tx.update("Child", key: .integer(id), set: ["parentID": .integer(Int64(score))])
                        } else if variant == .tomany {
                            try tx.update("Child", key: .integer(id), set: ["priority": .integer(Int64(score))])
                        } else {
                            try tx.update("Item", key: .integer(id), set: ["score": .double(score)])
                        }
                    }
                }
            }
            writeCalls.append(clock.now - callStart)
            written += 1
        }
        let writePhase = clock.now - start
        // Drain: every controller has applied every write. Another client's last commits reach the store through
        // its feed (a large one takes a while to decode): `sync()` waits only for what the store has seen.
        let drainStart = clock.now
        if settings.postgres && settings.variant != .unrelated {
            let deadline = clock.now + .seconds(10)
            while store.lastTransactionID < firstTransaction + UInt64(written) && clock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        for controller in controllers { await controller.sync() }
        let drain = clock.now - drainStart
        let cpu = processCPUTime() - cpuStart
        watcher.cancel()

        // Commit→delegate over the affected controllers.
        let arrivals = recorder.arrivals
        let times = published.withLock { $0 }
        let commits = committed.withLock { $0 }
        var latencies: [Duration] = []
        for (transaction, arrival) in arrivals where transaction > firstTransaction {
            let start: ContinuousClock.Instant?
            if settings.postgres {
                let index = Int(transaction - firstTransaction) - 1
                start = commits.indices.contains(index) ? commits[index] : nil
            } else {
                start = times[transaction]
            }
            if let start { latencies.append(arrival - start) }
        }
        latencies.sort()
        if ProcessInfo.processInfo.environment["SCALE_PER_WRITE"] != nil {
            var last: [UInt64: Duration] = [:]
            for (transaction, arrival) in arrivals where transaction > firstTransaction {
                if let start = times[transaction] {
                    last[transaction] = max(last[transaction] ?? .zero, arrival - start)
                }
            }
            let lasts = last.sorted { $0.key < $1.key }.map { Measurement.milliseconds($0.value) }
            print(
                "per-write last delivery (ms), in order:",
                lasts.map { String(format: "%.0f", $0) }.joined(separator: " "))
        }
        let worked = controllers.reduce(0) { $0 + $1.statistics.incrementalUpdates + $1.statistics.fullRefreshes }
        writeCalls.sort()
        // Spot-check exactness: a few controllers against a fresh fetch.
        var exact = true
        for k in stride(from: 0, to: n, by: max(1, n / 7)) {
            let fresh = try await store.fetch(controllers[k].request)
            if fresh != controllers[k].fetchedObjects { exact = false }
        }
        func ms(_ d: Duration) -> Double { Measurement.milliseconds(d) }
        func percentile(_ p: Int) -> Double {
            latencies.isEmpty ? 0 : ms(latencies[min(latencies.count - 1, latencies.count * p / 100)])
        }
        print(
            String(
                format: "scale %@ %@: %d controllers, %d writes in %.1f s (%.0f writes/s, target %d), drain %.1f ms",
                settings.postgres ? "postgres" : "sqlite", settings.variant.rawValue, n, written,
                ms(writePhase) / 1_000, Double(written) / (ms(writePhase) / 1_000), settings.rate, ms(drain)))
        print(
            String(
                format: "  commit→delegate p50 %.2f ms, p99 %.2f ms, max %.2f ms over %d deliveries (expected %d)",
                percentile(50), percentile(99), latencies.last.map(ms) ?? 0, latencies.count, expected))
        print(
            String(
                format:
                    "  CPU per write %.1f µs; controllers that did work per write %.2f; RSS per controller %.0f B; "
                    + "exact: %@",
                ms(cpu) * 1_000 / Double(max(written, 1)), Double(worked) / Double(max(written, 1)),
                Double(rssAfter - rssBefore) / Double(n), exact ? "yes" : "NO"))
        func callPercentile(_ p: Int) -> Double {
            writeCalls.isEmpty ? 0 : ms(writeCalls[min(writeCalls.count - 1, writeCalls.count * p / 100)])
        }
        print(
            String(
                format: "  %d row(s) per transaction; write call p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                settings.batch, callPercentile(50), callPercentile(99), writeCalls.last.map(ms) ?? 0))
        // How the router found each controller: by an index, by evaluating its predicate on every changed row
        // (scan: no conjunct an index serves), or not at all (the database decides).
        var routing: [ResultsController<Row>.Routing: Int] = [:]
        for controller in controllers { routing[controller.statistics.routing, default: 0] += 1 }
        print(
            "  routing: "
                + ResultsController<Row>.Routing.allCases.compactMap { kind in
                    routing[kind].map { "\($0) \(kind.rawValue)" }
                }.joined(separator: ", "))
        // A run whose controllers missed changes measured nothing: it fails, saying what the listener was doing.
        // (A few deliveries short is no fault: a batch covers a transaction an earlier batch already showed —
        // a row written twice while its controller was behind — and controllers are checked against a fetch.)
        // A window's controller sees a write only when the row is or comes into its window: no count is expected.
        let missed =
            !exact || (settings.variant != .topn && !settings.variant.isToMany && latencies.count * 2 < expected)
        let listener = (store as? PostgresStore).map { " (change listener: \($0.listenerStatus))" } ?? ""
        controllers.removeAll()
        await store.close()
        if let raw { try raw.exec("DROP SCHEMA \(namespace) CASCADE") }
        if missed {
            print("scale: FAILED: \(latencies.count) of \(expected) deliveries, exact: \(exact)\(listener)")
            exit(1)
        }
    }

    /// The process's resident set size, from /proc/self/statm; 0 where there is no /proc (macOS): the
    /// benchmarks' memory figures are Linux's.
    static func residentBytes() -> Int {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = text.split(separator: " ")
            return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
        #else
            return 0
        #endif
    }
}
