import FetchKit
import FetchKitSQLite
import FetchKitSession
import Foundation
import Synchronization

/// Thousands of live sessions, each scoped to its tenant, over one SQLite store
/// (`fetchkit-benchmarks sessions [--sessions 10000] [--tenants 1000] [--writes 500] [--rate 100]`).
///
/// Session i serves tenant `i % tenants` through the session core (a socket that counts what it receives);
/// the scope is `tenant == t`. Each write updates one row of one tenant. Measured: commit → every session of
/// that tenant has the batch (p50 / p99), CPU per write, how many sessions received a batch per write, and the
/// same with the scope written so that the router cannot index it (`tenant == t OR title == <never>`: every
/// change is then tested against every session's predicate) — the baseline of the same run.
enum SessionsBenchmark {
    static let card = Entity(
        "Card", table: "card", primaryKey: .integer("id"),
        attributes: [
            Attribute("tenant", .integer, indexed: true), Attribute("title", .text), Attribute("position", .double)
        ])

    /// A socket that counts the messages its session sends.
    final class CountingSocket: SessionTransport {
        let received = Atomic<Int>(0)
        let bytes = Atomic<Int>(0)

        func send(_ text: String) async throws {
            bytes.add(text.utf8.count, ordering: .relaxed)
            received.add(1, ordering: .relaxed)
        }

        func close(_ code: SessionCloseCode, reason: String) async {}
    }

    struct Outcome {
        var p50: Double
        var p99: Double
        var cpuPerWrite: Double
        var sessionsPerWrite: Double
    }

    static func run(sessions: Int, tenants: Int, writes: Int, rate: Int) async throws {
        print("sessions: \(sessions) sessions of \(tenants) tenants, \(writes) writes at \(rate)/s")
        let indexed = try await measure(
            sessions: sessions, tenants: tenants, writes: writes, rate: rate, indexable: true)
        let scan = try await measure(sessions: sessions, tenants: tenants, writes: writes, rate: rate, indexable: false)
        print(
            String(
                format: "  scoped through the index: CPU per write %.0f µs, %.1f× less than the scan baseline",
                indexed.cpuPerWrite, scan.cpuPerWrite / max(indexed.cpuPerWrite, 1)))
    }

    static func measure(
        sessions: Int, tenants: Int, writes: Int, rate: Int, indexable: Bool
    ) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-sessions-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteStore.open(
            path: directory.appendingPathComponent("sessions.sqlite").path, schema: try Schema([card]))
        try await store.write { tx in
            for id in 0..<(tenants * 10) {
                _ = try tx.insert(
                    [
                        "id": .integer(Int64(id)), "tenant": .integer(Int64(id % tenants)),
                        "title": .text("card \(id)"),
                        "position": .double(Double(id))
                    ], into: "Card")
            }
        }
        let session = LiveResultsSession(
            store: store, request: FetchRequest<Row>(entity: "Card", sortDescriptors: [.ascending("position")]))
        let rssBefore = ScaleBenchmark.residentBytes()
        var sockets: [CountingSocket] = []
        var inputs: [AsyncStream<String>.Continuation] = []
        var tasks: [Task<Void, Never>] = []
        let started = ContinuousClock.now
        for index in 0..<sessions {
            let socket = CountingSocket()
            let (inbound, input) = AsyncStream.makeStream(of: String.self)
            input.yield(#"{"v": 1, "type": "open"}"#)
            let tenant = Int64(index % tenants)
            let scope: FetchPredicate =
                indexable
                ? .key("tenant") == tenant : .or([.key("tenant") == tenant, .key("title") == "\u{1}never"])
            tasks.append(Task { await session.run(scope: scope, inbound: inbound, transport: socket) })
            sockets.append(socket)
            inputs.append(input)
        }
        while sockets.contains(where: { $0.received.load(ordering: .relaxed) == 0 }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let setup = ContinuousClock.now - started
        let rssPerSession = Double(ScaleBenchmark.residentBytes() - rssBefore) / Double(sessions)
        var latencies: [Double] = []
        let cpuStart = SustainedBenchmark.processCPUSeconds()
        let totalBefore = sockets.reduce(0) { $0 + $1.received.load(ordering: .relaxed) }
        var random = BenchRandom(seed: 42)
        for write in 0..<writes {
            let tenant = Int(random.next() % UInt64(tenants))
            let mine = stride(from: tenant, to: sessions, by: tenants).map { sockets[$0] }
            let before = mine.map { $0.received.load(ordering: .relaxed) }
            let began = ContinuousClock.now
            try await store.write { tx in
                try tx.update(
                    "Card", key: .integer(Int64(tenant + tenants * (write % 10))),
                    set: ["title": .text("write \(write)")])
            }
            while zip(mine, before).contains(where: { $0.received.load(ordering: .relaxed) == $1 }) {
                await Task.yield()
            }
            latencies.append(Double((ContinuousClock.now - began) / .microseconds(1)) / 1_000)
            try await Task.sleep(until: began + .seconds(1) / rate)
        }
        let cpu = (SustainedBenchmark.processCPUSeconds() - cpuStart) / Double(writes)
        let totalAfter = sockets.reduce(0) { $0 + $1.received.load(ordering: .relaxed) }
        for input in inputs { input.finish() }
        for task in tasks { await task.value }
        await store.close()
        latencies.sort()
        let outcome = Outcome(
            p50: latencies[latencies.count / 2], p99: latencies[min(latencies.count - 1, latencies.count * 99 / 100)],
            cpuPerWrite: cpu * 1e6, sessionsPerWrite: Double(totalAfter - totalBefore) / Double(writes))
        print(
            String(
                format:
                    "  %@: setup %.1f s, %.1f KB resident per session; commit → the tenant's sessions p50 %.2f ms, "
                    + "p99 %.2f ms; CPU per write %.0f µs; sessions that received a batch per write %.1f",
                indexable ? "indexed scope" : "scan baseline", Double(setup / .milliseconds(1)) / 1_000,
                rssPerSession / 1_024, outcome.p50, outcome.p99, outcome.cpuPerWrite, outcome.sessionsPerWrite))
        return outcome
    }
}
