import CSQLiteBench
import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation

/// An outside writer at the highest rate it sustains, for a long time, against N live controllers
/// (`fetchkit-benchmarks sustained [--postgres] [--controllers 1,100,1000] [--seconds 120]`).
///
/// The table `hot` has 100 rows (`grp = id % 10`); another process updates one random row per transaction
/// (`pgbench -c 2` on PostgreSQL, a python3 loop on SQLite), stamping `at` with its clock. One controller reads
/// the whole table; with more, controller k reads `grp == k % 10 AND v >= -k` (distinct requests: none share
/// results), ordered by `v` descending, so each write moves a row in a tenth of them. Measured from outside:
/// - lag: every 100 ms, each controller's lag is the sample time minus the newest `at` it shows (an upper
///   bound: it counts the gap since the last write to its rows); the worst controller's p99 over the load;
/// - resident memory every second: growth after the warm-up (a quarter of the run, at most 20 s);
/// - a write through the store every 250 ms during the load: how long `store.write` takes, then how long `sync()`
///   takes (the row must then show: read-your-writes); and, for a p99 that is not just the slowest of a few dozen,
///   another write every 50 ms, timed alone (about 20 a second: a few hundred samples a run);
/// - honesty: the samples in which a controller reads `.live` while it is further behind than its threshold (by the
///   measured lag, past a 100-ms sampling allowance);
/// - after the load: the time until every controller equals a fresh fetch.
///
/// The budget: p99 lag ≤ 1 s, exact within 1 s after the load, resident memory growth ≤ 10 %, every synced write
/// shown, `store.write` p99 ≤ 100 ms, no `.live` sample behind the threshold. Exceeding it exits 1.
enum SustainedBenchmark {
    static let hot = Entity(
        "Hot", table: "hot", primaryKey: .integer("id"),
        attributes: [Attribute("grp", .integer, indexed: true), Attribute("v", .integer), Attribute("at", .double)])
    static let rows = 100

    struct Settings {
        var controllers: Int
        var seconds: Int
        var postgres: Bool
        var clients = 2
        /// The PostgreSQL store's change feed.
        var feed = PostgresStore.ChangeFeedKind.triggers
    }

    struct Outcome {
        var p99Lag: Double
        var maxLag: Double
        var converged: Double?
        var growth: Double
        var budgetMet: Bool
    }

    static func request(_ k: Int, of n: Int) -> FetchRequest<Row> {
        let order: [FetchSortDescriptor] = [.descending("v"), .ascending("id")]
        guard n > 1 else { return FetchRequest(entity: "Hot", sortDescriptors: order) }
        return FetchRequest(
            entity: "Hot", predicate: .and([.key("grp") == Int64(k % 10), .key("v") >= Int64(-k)]),
            sortDescriptors: order)
    }

    @discardableResult
    static func run(_ settings: Settings) async throws -> Outcome {
        let schema = try Schema([hot])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-sustained-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any PersistentStore
        var namespace = ""
        var raw: RawConnection?
        var databaseURL = ""
        let path = directory.appendingPathComponent("sustained.sqlite").path
        if settings.postgres {
            guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
                print("sustained: DATABASE_URL is not set; run: eval \"$(bash Integration/scripts/pg-start.sh)\"")
                exit(2)
            }
            databaseURL = text
            namespace = "fksustained_\(ProcessInfo.processInfo.processIdentifier)"
            let connection = try RawConnection(text)
            try connection.exec("DROP SCHEMA IF EXISTS \(namespace) CASCADE; CREATE SCHEMA \(namespace)")
            let url = try PostgresURL(
                text + (text.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(namespace)")
            store = try await PostgresStore.open(
                url: url, schema: schema, options: .init(readerCount: 2, changeFeed: settings.feed))
            raw = connection
        } else {
            store = try await SQLiteStore.open(path: path, schema: schema)
        }
        let now = Date().timeIntervalSince1970
        try await store.write { tx in
            for id in 1...rows {
                try tx.insert(
                    ["id": .integer(Int64(id)), "grp": .integer(Int64(id % 10)), "v": 0, "at": .double(now)],
                    into: "Hot")
            }
        }
        let n = settings.controllers
        var controllers: [ResultsController<Row>] = []
        controllers.reserveCapacity(n)
        for k in 0..<n {
            let controller = ResultsController(store: store, request: request(k, of: n))
            try await controller.performFetch()
            controllers.append(controller)
        }

        let writer =
            settings.postgres
            ? try OutsideWriter.pgbench(
                url: databaseURL, table: "\(namespace).hot", rows: rows, clients: settings.clients,
                seconds: settings.seconds)
            : try OutsideWriter.sqlite(path: path, rows: rows, seconds: settings.seconds)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuAtStart = Self.processCPUSeconds()
        let warmUp = Duration.seconds(min(20, max(1, settings.seconds / 4)))
        // Each controller's lag samples, in milliseconds, in arrays filled before the load: the benchmark's own
        // measurements (10 a second per controller) must not grow the resident memory it measures.
        let capacity = settings.seconds * 10 + 100
        var lags = (0..<n).map { _ in [UInt16](repeating: 0, count: capacity) }
        var sampleCount = 0
        var rss: [(Duration, Int)] = []
        var heap: [HeapUsage] = []
        var kinds: [ResidentKinds] = []
        var sqliteMemory: [Int] = []
        var catchingUpSamples = 0
        var samples = 0
        var nextRSS = start
        var liveBehindSamples = 0
        // Read-your-writes under load, beside the sampling: every 250 ms, a write through the store (one row in, the
        // previous probe's out), then sync() on one controller.
        let probe = Task { [controllers] in
            var syncs: [Double] = []
            var writes: [Double] = []
            var unseen = 0
            var key: Int64 = 1_000_000
            while clock.now - start < .seconds(settings.seconds) - .seconds(3) {
                try await Task.sleep(for: .milliseconds(250))
                key += 1
                let inserted = key
                let began = clock.now
                do {
                    // The previous probe's row goes in the same transaction: the table stays at its rows (a table
                    // growing by a row every 2 s would grow the controllers' results, and their memory, with it).
                    _ = try await store.write { tx in
                        try tx.delete("Hot", key: .integer(inserted - 1))
                        try tx.insert(
                            ["id": .integer(inserted), "grp": .integer(inserted % 10), "v": -1, "at": .double(0)],
                            into: "Hot")
                    }
                } catch {
                    // SQLite: the outside writer held the lock past the busy timeout. Not FetchKit's to measure.
                    print("  (a probe write failed: \(error))")
                    continue
                }
                writes.append(Measurement.milliseconds(clock.now - began))
                await controllers[Int(inserted) % n].sync()
                syncs.append(Measurement.milliseconds(clock.now - began))
                // Read-your-writes: the controller synced shows the row (its filter keeps it: same group, v >= -k).
                let k = Int(inserted) % n
                if n == 1 || k > 0,
                    !controllers[k].fetchedObjects.contains(where: { $0["id"] == .integer(inserted) })
                {
                    unseen += 1
                }
            }
            return (syncs, writes, unseen)
        }
        // Write latency alone, with enough samples for a p99: every 50 ms, one row in and the previous one out.
        let paced = Task {
            var writes: [Double] = []
            var key: Int64 = 2_000_000
            while clock.now - start < .seconds(settings.seconds) - .seconds(3) {
                try await Task.sleep(for: .milliseconds(50))
                key += 1
                let inserted = key
                let began = clock.now
                do {
                    _ = try await store.write { tx in
                        try tx.delete("Hot", key: .integer(inserted - 1))
                        try tx.insert(
                            ["id": .integer(inserted), "grp": .integer(inserted % 10), "v": -1, "at": .double(0)],
                            into: "Hot")
                    }
                } catch {
                    print("  (a paced write failed: \(error))")
                    continue
                }
                writes.append(Measurement.milliseconds(clock.now - began))
            }
            return writes
        }
        while writer.process.isRunning {
            let tick = clock.now
            let sampleTime = Date().timeIntervalSince1970
            for (k, controller) in controllers.enumerated() {
                var newest = 0.0
                for row in controller.fetchedObjects {
                    if case .double(let at) = row["at"] ?? .null { newest = max(newest, at) }
                }
                let lag = max(0, sampleTime - newest)
                if sampleCount < capacity {
                    lags[k][sampleCount] = UInt16(min(65_535, (lag * 1_000).rounded(.up)))
                }
                let status = controller.status
                if case .catchingUp = status { catchingUpSamples += 1 }
                // The measured lag is an upper bound (the time since the newest write it shows): past the threshold
                // by more than the sampling's 100 ms, the controller is behind for sure — once the writer has run a
                // second (before, the newest write a controller shows is the setup's, however current it is).
                let threshold =
                    Double(controller.catchingUpThreshold.components.attoseconds) / 1e18
                    + Double(controller.catchingUpThreshold.components.seconds)
                if status == .live, lag > threshold + 0.1, tick - start >= .seconds(1) { liveBehindSamples += 1 }
            }
            samples += 1
            sampleCount = min(sampleCount + 1, capacity)
            if tick >= nextRSS {
                rss.append((tick - start, ScaleBenchmark.residentBytes()))
                heap.append(HeapUsage.current())
                kinds.append(ResidentKinds.current())
                sqliteMemory.append(Int(sqlite3_memory_used()))
                nextRSS = tick + .seconds(1)
            }
            try await Task.sleep(until: tick + .milliseconds(100), clock: clock)
        }
        let loadEnd = clock.now
        let cpuDuringLoad = Self.processCPUSeconds() - cpuAtStart
        let writerOutput = try await writer.finish()
        let (syncs, probeWrites, unseen) = try await probe.value
        let writes = probeWrites + (try await paced.value)

        // After the load: until every controller equals a fresh fetch.
        var converged: Duration?
        while clock.now - loadEnd < .seconds(30) {
            let all = try await store.fetch(FetchRequest(entity: "Hot", sortDescriptors: [.ascending("id")]))
            var exact = true
            for (k, controller) in controllers.enumerated() where exact {
                exact = expected(all, k: k, n: n) == controller.fetchedObjects.map(\.values)
            }
            if exact {
                converged = clock.now - loadEnd
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let tps = writerOutput.split(separator: "\n").first { $0.hasPrefix("tps") || $0.hasPrefix("transactions:") }

        var worst: [Double] = []
        var maxLag = 0.0
        for series in lags where sampleCount > 0 {
            let sorted = series.prefix(sampleCount).map { Double($0) / 1_000 }.sorted()
            worst.append(sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
            maxLag = max(maxLag, sorted.last ?? 0)
        }
        let p99 = worst.max() ?? 0
        let afterWarmUp = rss.filter { $0.0 >= warmUp }.map(\.1)
        let base = afterWarmUp.first ?? 1
        let growth = Double((afterWarmUp.max() ?? base) - base) / Double(max(base, 1))
        func mib(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
        let convergedSeconds = converged.map { Measurement.milliseconds($0) / 1_000 }
        print(
            String(
                format: "sustained %@: %d controllers, %d s, writer %@",
                settings.postgres ? "postgres" : "sqlite", n, settings.seconds, String(tps ?? "?")))
        print(
            String(
                format: "  lag (worst controller) p99 %.3f s, max %.3f s; catching-up samples %.1f %%",
                p99, maxLag, Double(catchingUpSamples) * 100 / Double(max(samples * n, 1))))
        print(
            String(
                format: "  RSS start %.1f MiB, after warm-up %.1f MiB, max %.1f MiB, end %.1f MiB (growth %.1f %%)",
                mib(rss.first?.1 ?? 0), mib(base), mib(afterWarmUp.max() ?? 0), mib(rss.last?.1 ?? 0),
                growth * 100))
        let tens = rss.enumerated().filter { $0.offset % 10 == 0 }.map { String(format: "%.0f", mib($0.element.1)) }
        print("  RSS every 10 s (MiB): \(tens.joined(separator: " "))")
        let heapTens = heap.enumerated().filter { $0.offset % 10 == 0 }.map {
            String(format: "%.0f/%.0f", mib($0.element.inUse), mib($0.element.obtained))
        }
        print("  heap in use / held by the allocator every 10 s (MiB): \(heapTens.joined(separator: " "))")
        if let first = rss.firstIndex(where: { $0.0 >= warmUp }), let last = kinds.indices.last {
            let (a, b) = (kinds[first], kinds[last])
            print(
                String(
                    format: "  RSS after warm-up → end (MiB): anonymous %.1f → %.1f, files %.1f → %.1f, "
                        + "shared memory %.1f → %.1f",
                    mib(a.anonymous), mib(b.anonymous), mib(a.file), mib(b.file), mib(a.shared), mib(b.shared)))
        }
        if !settings.postgres {
            let tens = sqliteMemory.enumerated().filter { $0.offset % 10 == 0 }.map {
                String(format: "%.1f", mib($0.element))
            }
            print("  of which SQLite's own (sqlite3_memory_used) every 10 s (MiB): \(tens.joined(separator: " "))")
        }
        let statistics = controllers.map(\.statistics)
        let loadSeconds = max(Measurement.milliseconds(loadEnd - start) / 1_000, 0.001)
        print(
            String(
                format: "  applied per controller per second: %.1f incremental (%.1f routed), %.2f refetches; "
                    + "%.1f coalesced; largest backlog %d",
                Double(statistics.map(\.incrementalUpdates).reduce(0, +)) / Double(n) / loadSeconds,
                Double(statistics.map(\.routedUpdates).reduce(0, +)) / Double(n) / loadSeconds,
                Double(statistics.map(\.fullRefreshes).reduce(0, +)) / Double(n) / loadSeconds,
                Double(statistics.map(\.coalescedDeliveries).reduce(0, +)) / Double(n) / loadSeconds,
                statistics.map(\.largestBacklog).max() ?? 0))
        let transactions = tps.flatMap { line in
            line.split(separator: " ").compactMap { Double($0) }.first.map { $0 * loadSeconds }
        }
        print(
            String(
                format: "  process CPU during the load: %.1f s (%.0f %% of a core)%@", cpuDuringLoad,
                cpuDuringLoad * 100 / loadSeconds,
                transactions.map { String(format: ", %.0f µs per writer transaction", cpuDuringLoad * 1e6 / $0) }
                    ?? ""))
        let sortedSyncs = syncs.sorted()
        print(
            String(
                format: "  sync() after a write: median %.0f ms, max %.0f ms (%d samples); exact after the load in %@",
                sortedSyncs.isEmpty ? 0 : sortedSyncs[sortedSyncs.count / 2], sortedSyncs.last ?? 0, syncs.count,
                convergedSeconds.map { String(format: "%.2f s", $0) } ?? "never (30 s)"))
        let sortedWrites = writes.sorted()
        let writeP99 =
            sortedWrites.isEmpty ? 0 : sortedWrites[min(sortedWrites.count - 1, sortedWrites.count * 99 / 100)]
        print(
            String(
                format: "  store.write: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d samples)",
                sortedWrites.isEmpty ? 0 : sortedWrites[sortedWrites.count / 2], writeP99, sortedWrites.last ?? 0,
                writes.count))
        print(
            String(
                format: "  .live while behind the threshold: %d of %d samples", liveBehindSamples, samples * n))
        if unseen > 0 { print("  READ-YOUR-WRITES VIOLATED: \(unseen) synced controllers did not show their write") }
        let budgetMet =
            p99 <= 1 && (convergedSeconds ?? .infinity) <= 1 && growth <= 0.10 && unseen == 0 && writeP99 <= 100
            && liveBehindSamples == 0
        let verdict = budgetMet ? "met" : "EXCEEDED"
        print(
            "  budget (p99 lag ≤ 1 s, exact ≤ 1 s after, RSS growth ≤ 10 %, writes shown, write p99 ≤ 100 ms, "
                + "never live behind): \(verdict)")
        controllers.removeAll()
        await store.close()
        if let raw { try raw.exec("DROP SCHEMA \(namespace) CASCADE") }
        return Outcome(
            p99Lag: p99, maxLag: maxLag, converged: convergedSeconds, growth: growth, budgetMet: budgetMet)
    }

    /// The CPU time (user and system) this process has used, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        // glibc declares `RUSAGE_SELF` as an enum case, Darwin and musl as an `Int32`.
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Controller k's results computed from every row (ordered by id): its filter, then `v` descending, `id`.
    static func expected(_ all: [Row], k: Int, n: Int) -> [[Value]] {
        let kept =
            n == 1
            ? all
            : all.filter { row in
                guard case .integer(let group) = row["grp"] ?? .null, case .integer(let v) = row["v"] ?? .null else {
                    return false
                }
                return group == Int64(k % 10) && v >= Int64(-k)
            }
        func v(_ row: Row) -> Int64 { if case .integer(let v) = row["v"] ?? .null { v } else { .min } }
        func id(_ row: Row) -> Int64 { if case .integer(let id) = row["id"] ?? .null { id } else { .min } }
        return kept.sorted { v($0) != v($1) ? v($0) > v($1) : id($0) < id($1) }.map(\.values)
    }
}
