@_spi(Benchmarks) import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation

/// Where a live controller's memory goes, for each stage of its life and per live row
/// (`fetchkit-benchmarks memory [--controllers N] [--postgres]`, the PostgreSQL server from `DATABASE_URL`, in a
/// schema of its own): the heap the process holds once the stage is done (what
/// glibc's allocator has handed out and not taken back, after a pause for deferred releases), and the resident
/// set's growth. The heap is the figure to compare: the resident set grows only by what the allocator had to
/// obtain, so a stage after one that freed memory looks cheaper than it is.
///
/// Each heap figure has a budget (the figure recorded in BENCHMARKS.md plus a margin for the host's noise); a
/// run above one exits 1.
enum MemoryProbe {
    static let budgets: [String: Double] = [
        "an AsyncStream and a Task waiting on it": 1_900, "a controller, not fetched": 1_450,
        "a controller fetched, no row": 2_100, "a controller fetched, one row (4 columns)": 2_750,
        "one controller of every row: per live row": 170
    ]

    static func run(count: Int, postgres: Bool) async throws {
        let schema = try Schema([ScaleBenchmark.item, ScaleBenchmark.other])
        let store: any PersistentStore
        var cleanup: (() throws -> Void)?
        if postgres {
            guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
                print("memory: DATABASE_URL is not set; run: eval \"$(bash Integration/scripts/pg-start.sh)\"")
                exit(2)
            }
            let namespace = "fkmemory_\(ProcessInfo.processInfo.processIdentifier)"
            let raw = try RawConnection(text)
            try raw.exec("DROP SCHEMA IF EXISTS \(namespace) CASCADE; CREATE SCHEMA \(namespace)")
            let url = try PostgresURL(
                text + (text.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(namespace)")
            store = try await PostgresStore.open(url: url, schema: schema, options: .init(readerCount: 2))
            cleanup = { try raw.exec("DROP SCHEMA \(namespace) CASCADE") }
        } else {
            store = try await SQLiteStore.inMemory(schema: schema)
        }
        try await store.write { tx in
            for i in 0..<count {
                try tx.insert(
                    [
                        "id": .integer(Int64(i + 1)), "grp": .integer(Int64(i)), "score": .double(Double(i)),
                        "name": .text("row \(i)")
                    ], into: "Item")
            }
        }
        var figures: [String: Double] = [:]
        func report(_ name: String, heap: Int, resident: Int) {
            figures[name] = Double(heap) / Double(count)
            print(
                String(
                    format: "memory: %@ heap %5.0f B, resident %5.0f B each",
                    name.padding(toLength: 44, withPad: " ", startingAt: 0), Double(heap) / Double(count),
                    Double(resident) / Double(count)))
        }
        func measure(_ name: String, _ body: () async throws -> Any) async throws -> Any {
            try await Task.sleep(for: .milliseconds(200))
            let heap = HeapUsage.current().inUse
            let resident = ScaleBenchmark.residentBytes()
            let kept = try await body()
            try await Task.sleep(for: .milliseconds(200))
            report(
                name, heap: HeapUsage.current().inUse - heap, resident: ScaleBenchmark.residentBytes() - resident)
            return kept
        }
        let streams = try await measure("an AsyncStream and a Task waiting on it") {
            (0..<count).map { _ -> (AsyncStream<Int>.Continuation, Task<Void, Never>) in
                let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
                return (continuation, Task { for await _ in stream {} })
            }
        }
        let idle = try await measure("a controller, not fetched") {
            (0..<count).map { k in
                ResultsController(
                    store: store,
                    request: FetchRequest(
                        entity: "Item", predicate: .key("grp") == Int64(-1 - k), sortDescriptors: [.ascending("score")])
                )
            }
        }
        let empty = try await measure("a controller fetched, no row") {
            var controllers: [ResultsController<Row>] = []
            for k in 0..<count {
                let controller = ResultsController(
                    store: store,
                    request: FetchRequest(
                        entity: "Item", predicate: .key("grp") == Int64(-1 - k - count),
                        sortDescriptors: [.ascending("score")]))
                try await controller.performFetch()
                controllers.append(controller)
            }
            return controllers
        }
        let one = try await measure("a controller fetched, one row (4 columns)") {
            var controllers: [ResultsController<Row>] = []
            for k in 0..<count {
                let controller = ResultsController(
                    store: store,
                    request: FetchRequest(
                        entity: "Item", predicate: .key("grp") == Int64(k), sortDescriptors: [.ascending("score")]))
                try await controller.performFetch()
                controllers.append(controller)
            }
            return controllers
        }
        // The store's own first read of every row (the connections' page caches and statements) is the store's,
        // not the controller's: read them all once before measuring, on every reader.
        let request = FetchRequest(entity: "Item", sortDescriptors: [.ascending("score")])
        for _ in 0..<4 { _ = try await store.fetch(request) }
        let all = try await measure("one controller of every row: per live row") {
            let controller = ResultsController(store: store, request: request)
            try await controller.performFetch()
            return controller
        }
        var exceeded: [String] = []
        for (name, budget) in budgets.sorted(by: { $0.key < $1.key }) {
            guard let figure = figures[name], figure > budget else { continue }
            exceeded.append(String(format: "%@ %.0f B > budget %.0f B", name, figure, budget))
        }
        withExtendedLifetime((streams, idle, empty, one, all)) {}
        await store.close()
        try cleanup?()
        if !exceeded.isEmpty {
            print("memory: over budget: " + exceeded.joined(separator: "; "))
            exit(1)
        }
    }
}
