@_spi(Benchmarks) import FetchKit
import FetchKitSQLite
import Foundation

/// Where a live controller's fixed memory goes: RSS per object for each stage of a controller's life, with
/// what each stage adds (`fetchkit-benchmarks memory [--controllers N]`).
enum MemoryProbe {
    static func run(count: Int) async throws {
        let schema = try Schema([ScaleBenchmark.item, ScaleBenchmark.other])
        let store = try await SQLiteStore.inMemory(schema: schema)
        try await store.write { tx in
            for i in 0..<count {
                try tx.insert(
                    [
                        "id": .integer(Int64(i + 1)), "grp": .integer(Int64(i)), "score": .double(Double(i)),
                        "name": .text("row \(i)")
                    ], into: "Item")
            }
        }
        func measure(_ name: String, _ body: () async throws -> Any) async rethrows -> Any {
            let before = ScaleBenchmark.residentBytes()
            let kept = try await body()
            let after = ScaleBenchmark.residentBytes()
            print(
                String(
                    format: "memory: %@ %.0f B each", name.padding(toLength: 52, withPad: " ", startingAt: 0),
                    Double(after - before) / Double(count)))
            return kept
        }
        let streams = await measure("an AsyncStream and a Task waiting on it") {
            (0..<count).map { _ -> (AsyncStream<Int>.Continuation, Task<Void, Never>) in
                let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
                return (continuation, Task { for await _ in stream {} })
            }
        }
        let idle = await measure("a controller, not fetched") {
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
        let before = ScaleBenchmark.residentBytes()
        let all = ResultsController(
            store: store, request: FetchRequest(entity: "Item", sortDescriptors: [.ascending("score")]))
        try await all.performFetch()
        let after = ScaleBenchmark.residentBytes()
        print(
            String(
                format: "memory: %@ %.0f B each",
                "one controller of every row: per live row".padding(
                    toLength: 52, withPad: " ", startingAt: 0), Double(after - before) / Double(count)))
        withExtendedLifetime((streams, idle, empty, one, all)) {}
        await store.close()
    }
}
