import FetchKitPostgres
import Foundation
import Logging
import Synchronization

// The stores log through the task's logger: their lines (warnings and above) go to stderr, stdout is the report.
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
}

// Usage: swift run -c release fetchkit-benchmarks [fetch|diff|staged|tree|live|engine|postgres|bulk|scale|memory|peer]
//            [--rows N] [--iterations N]
//        bulk: [--rows N] [--iterations N] [--loop-rows N]
//        [--sides codable,rows,…] [--samples N] [--changes N] [--refetches N]
//        scale: [--shape grp|shared|scan|range|topn|unrelated|clients|tomany|tomanycount] [--batch B] [--controllers N]
//               [--requests R] [--rate W] [--seconds S] [--postgres]
//               [--feed triggers|logical]
//        bigtx: [--rows N] [--controllers N] [--rounds R] [--postgres] [--feed triggers|logical]
//        sessions: [--sessions N] [--tenants T] [--writes W] [--rate R]
//        resume: [--rows N] [--offline S] [--rate W] [--rounds R] [--max-ratio X]
//        slow-client: [--rows N] [--rate W] [--seconds S] [--warmup S] [--read-ms MS] [--rounds R] [--max-growth-mb M]
//        memory: [--controllers N] [--postgres]
//        sustained: [--postgres] [--controllers 1,100,1000] [--seconds S] [--feed triggers|logical] [--clients N]
//        fetchkit-benchmarks profile raw|codable|rows [--rows N] [--iterations N] [--path FILE]
// `profile` runs one side only, untimed, for perf or callgrind: the difference between two
// iteration counts divided by the extra rows is the cost per row. With --path the table is written
// to FILE once and reused, so a profile holds nothing but fetches.
let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex,
        let parsed = Int(arguments[arguments.index(after: index)])
    else { return value }
    return parsed
}
/// The decimal number after `name` (`nil`: none given).
func decimal(_ name: String) -> Double? { value(after: name).flatMap { Double($0) } }
/// The argument after `name`, if any.
func value(after name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else {
        return nil
    }
    return arguments[arguments.index(after: index)]
}
let path = value(after: "--path")
let controllerCounts = value(after: "--controllers")
let sides = value(after: "--sides")
let variantName = value(after: "--variant")
let feedName = value(after: "--feed")
let options = [path, controllerCounts, sides, variantName, feedName].compactMap { $0 }
/// The PostgreSQL change feed the store reads (`--feed`, default the triggers).
let changeFeed: PostgresStore.ChangeFeedKind = {
    guard let feedName else { return .triggers }
    guard let kind = PostgresStore.ChangeFeedKind(rawValue: feedName) else {
        print("unknown feed \(feedName); expected one of \(PostgresStore.ChangeFeedKind.allCases.map(\.rawValue))")
        exit(2)
    }
    return kind
}()
let words = arguments.filter { !$0.hasPrefix("--") && Double($0) == nil && !options.contains($0) }
let rows = option("--rows", default: 100_000)
let iterations = option("--iterations", default: 11)

/// Runs `body` on the concurrency pool and blocks the main thread until it ends. The main thread
/// waits on a semaphore rather than in `dispatch_main` (an async top level), which valgrind cannot run.
func runBlocking(_ body: @escaping @Sendable () async throws -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            try await body()
        } catch {
            print("error: \(error)")
            exit(1)
        }
        done.signal()
    }
    done.wait()
}

/// Runs `body` as `runBlocking` does, then exits 1 when it returned `false` (a wrong result, a budget exceeded).
func runChecked(_ body: @escaping @Sendable () async throws -> Bool) {
    let passed = Atomic<Bool>(true)
    runBlocking { passed.store(try await body(), ordering: .relaxed) }
    if !passed.load(ordering: .relaxed) { exit(1) }
}

if words.first == "profile" {
    let side = words.dropFirst().first ?? "codable"
    guard let kind = FetchBenchmark.Side(rawValue: side) else {
        print("unknown side \(side); expected one of \(FetchBenchmark.Side.allCases.map(\.rawValue))")
        exit(2)
    }
    runBlocking { try await FetchBenchmark.profile(kind, rows: rows, iterations: iterations, path: path) }
} else if words.isEmpty || words.contains("fetch") {
    let only = sides.map { Set($0.split(separator: ",").compactMap { FetchBenchmark.Side(rawValue: String($0)) }) }
    runBlocking { try await FetchBenchmark.run(rows: rows, iterations: iterations, only: only) }
}
if words.isEmpty || words.contains("diff") { runBlocking { await DiffBenchmark.run(iterations: iterations) } }
if words.isEmpty || words.contains("staged") {
    let sizes = arguments.contains("--rows") ? [rows] : [100_000, 1_000_000]
    runBlocking { try await StagedBenchmark.run(sizes: sizes, iterations: min(iterations, 5)) }
}
if words.isEmpty || words.contains("tree") { TreeBenchmark.run(arguments: Array(arguments)) }
if words.isEmpty || words.contains("live") {
    runBlocking { try await LiveBenchmark.run(rows: rows, samples: max(200, option("--samples", default: 200))) }
}
if words.isEmpty || words.contains("engine") {
    let sizes = arguments.contains("--rows") ? [rows] : [100_000, 1_000_000]
    try EngineBenchmark.run(
        sizes: sizes, changes: option("--changes", default: 20_000),
        refetches: option("--refetches", default: 7))
}
if words.contains("postgres") {
    runBlocking {
        try await PostgresBenchmark.run(
            rows: rows, samples: max(200, option("--samples", default: 500)),
            iterations: iterations, writes: option("--writes", default: 2_000))
    }
}
if words.contains("bulk") {
    runBlocking {
        try await BulkBenchmark.run(
            rows: rows, iterations: option("--iterations", default: 5),
            loopRows: option("--loop-rows", default: 5_000))
    }
}
if words.contains("scale") {
    let variants =
        (value(after: "--shape") ?? value(after: "--variant")).map { [$0] }
        ?? ScaleBenchmark.Variant.allCases.map(\.rawValue)
    for name in variants {
        guard let variant = ScaleBenchmark.Variant(rawValue: name) else {
            print("unknown variant \(name); expected one of \(ScaleBenchmark.Variant.allCases.map(\.rawValue))")
            exit(2)
        }
        let settings = ScaleBenchmark.Settings(
            controllers: option("--controllers", default: variant == .shared ? 10_000 : 10_000),
            rate: option("--rate", default: variant == .shared ? 10 : 1_000),
            seconds: option("--seconds", default: 20), variant: variant,
            postgres: arguments.contains("--postgres"), rows: option("--rows", default: 100_000),
            batch: option("--batch", default: 1), requests: option("--requests", default: 0), feed: changeFeed)
        runBlocking { try await ScaleBenchmark.run(settings) }
    }
}
if words.contains("bigtx") {
    let settings = BigTransactionBenchmark.Settings(
        rows: option("--rows", default: 100_000), controllers: option("--controllers", default: 10_000),
        rounds: option("--rounds", default: 3), postgres: arguments.contains("--postgres"), feed: changeFeed)
    runChecked { try await BigTransactionBenchmark.run(settings) }
}
if words.contains("sessions") {
    runBlocking {
        try await SessionsBenchmark.run(
            sessions: option("--sessions", default: 10_000), tenants: option("--tenants", default: 1_000),
            writes: option("--writes", default: 500), rate: option("--rate", default: 100))
    }
}
if words.contains("resume") {
    let settings = ResumeBenchmark.Settings(
        rows: option("--rows", default: 1_000), offlineSeconds: option("--offline", default: 5),
        rate: option("--rate", default: 100), rounds: option("--rounds", default: 3),
        maxRatio: decimal("--max-ratio") ?? 0.75)
    runChecked { try await ResumeBenchmark.run(settings) }
}
if words.contains("slow-client") {
    let settings = SlowClientBenchmark.Settings(
        rows: option("--rows", default: 1_000), rate: option("--rate", default: 1_000),
        seconds: option("--seconds", default: 30), warmup: option("--warmup", default: 5),
        readDelay: .milliseconds(option("--read-ms", default: 1_000)), rounds: option("--rounds", default: 3),
        maxGrowthMB: decimal("--max-growth-mb") ?? 8)
    runChecked { try await SlowClientBenchmark.run(settings) }
}
if words.contains("memory") {
    runBlocking {
        try await MemoryProbe.run(
            count: option("--controllers", default: 10_000), postgres: arguments.contains("--postgres"))
    }
}
if words.contains("peer") {
    runBlocking { try await PeerBenchmark.run(writes: option("--writes", default: 200)) }
}
if words.contains("sustained") {
    // Every run of the list; exits 1 afterwards when any exceeded its budget.
    let counts = (controllerCounts ?? "1").split(separator: ",").compactMap { Int($0) }
    let exceeded = Atomic<Bool>(false)
    for count in counts {
        let settings = SustainedBenchmark.Settings(
            controllers: count, seconds: option("--seconds", default: 120), postgres: arguments.contains("--postgres"),
            clients: option("--clients", default: 2), feed: changeFeed)
        runBlocking {
            if try await !SustainedBenchmark.run(settings).budgetMet { exceeded.store(true, ordering: .relaxed) }
        }
    }
    if exceeded.load(ordering: .relaxed) { exit(1) }
}
