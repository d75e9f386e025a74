import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// The JavaScript reference client (`Clients/JavaScript/fetchkit-changeset.js`) under node: a live,
/// sectioned controller's batches under random transactions are recorded as wire JSON with what the
/// controller held after each; `check.mjs` replays them and must hold the same after every batch.
@Suite("Wire format: the JavaScript client")
struct WireJavaScriptClientTests {
    static let repository = BuildProducts.packageRoot()

    struct Step: Encodable {
        var batch: WireChangeset<Row>
        var expected: [Section]
    }

    struct Section: Encodable {
        var name: String
        var keys: [Value]
    }

    struct Recording: Encodable {
        var key = "id"
        var steps: [Step]
    }

    @Test func nodeReplaysEveryBatch() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        var steps: [Step] = []
        for request in StoreConformance.liveRequests.prefix(4) {
            let controller = ResultsController(store: store, request: request)
            let recorder = ChangesetRecorder<ResultsController<Row>>()
            controller.delegate = recorder
            try await controller.performFetch()
            func expected() -> [Section] {
                controller.sections.map {
                    Section(
                        name: $0.name, keys: $0.objects.map { $0[request.entityName == "Todo" ? "id" : "id"] ?? .null })
                }
            }
            // Each request's recording starts from an empty list.
            steps.append(Step(batch: WireChangeset(inserting: controller.snapshot), expected: expected()))
            var random = SeededRandom(seed: 0x15)
            for _ in 0..<80 {
                try await RandomOperation.writeTransactions(1, to: store, using: &random)
                await controller.sync()
                for update in recorder.takeBatches() {
                    steps.append(Step(batch: WireChangeset(update), expected: expected()))
                }
            }
            try await run(Recording(steps: steps))
            steps = []
        }
        await store.close()
    }

    /// Writes `recording` to a file and replays it with node.
    private func run(_ recording: Recording) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fetchkit-wire-\(UUID().uuidString).json")
        try JSONEncoder().encode(recording).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, text) = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["node", Self.repository.appendingPathComponent("Clients/JavaScript/check.mjs").path, file.path])
        #expect(status == 0, "node check.mjs failed (is node installed?): \(text)")
        #expect(text.hasPrefix("ok: \(recording.steps.count) batches"), "\(text)")
    }
}
