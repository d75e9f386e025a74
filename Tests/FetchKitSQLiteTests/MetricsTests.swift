import CoreMetrics
import FetchKit
import FetchKitSQLite
import FetchKitTesting
import MetricsTestKit
import Testing

/// FetchKit's swift-metrics counters and gauges reach the backend the app bootstrapped.
///
/// The metrics system is bootstrapped once per process, and tests run side by side: every store opened
/// after the bootstrap reports into the same metrics, so the checks are lower bounds on what this test did.
@Suite("Metrics")
struct MetricsTests {
    static let metrics: TestMetrics = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        return metrics
    }()

    @Test("live controllers, batches, incremental and refetched changes, permanent failures")
    func countsWhatControllersDo() async throws {
        let metrics = Self.metrics
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let batchesBefore = metrics.counterTotal(label: "fetchkit_batches_delivered_total")
        let incrementalBefore = metrics.counterTotal(
            label: "fetchkit_changes_applied_total", dimensions: [("path", "incremental")])
        let failuresBefore = metrics.counterTotal(label: "fetchkit_failures_total", dimensions: [("kind", "permanent")])
        let recorders = (0..<50).map { _ in ResultsRecorder<Row>() }
        var controllers: [ResultsController<Row>] = []
        for (index, recorder) in recorders.enumerated() {
            let controller = ResultsController(
                store: store,
                request: FetchRequest(
                    entity: "Todo", predicate: .key("priority") >= Int64(index % 5), sortDescriptors: [.ascending("id")]
                ))
            controller.delegate = recorder
            try await controller.performFetch()
            controllers.append(controller)
        }
        let live = try metrics.expectMeter("fetchkit_controllers")
        #expect((live.lastValue ?? 0) >= 50, "fetchkit_controllers is \(live.lastValue ?? 0) with 50 controllers alive")
        for step in 0..<5 {
            try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": .text("step \(step)")]) }
        }
        for controller in controllers { await controller.sync() }
        let delivered = recorders.reduce(0) { $0 + $1.updates.count }
        #expect(delivered > 0)
        #expect(metrics.counterTotal(label: "fetchkit_batches_delivered_total") - batchesBefore >= Int64(delivered))
        // Five requests, each led by one controller that applies the change (the others follow its batches).
        #expect(
            metrics.counterTotal(label: "fetchkit_changes_applied_total", dimensions: [("path", "incremental")])
                - incrementalBefore >= 5)
        // A permanent failure is counted.
        try await store.write { tx in
            _ = try tx.execute(#"ALTER TABLE "todo" RENAME COLUMN "title" TO "headline""#, [])
            _ = try tx.execute(#"UPDATE "todo" SET "priority" = 4 WHERE "id" = 2"#, [])
        }
        await controllers[0].sync()
        #expect(controllers[0].status.error != nil)
        #expect(
            metrics.counterTotal(label: "fetchkit_failures_total", dimensions: [("kind", "permanent")]) > failuresBefore
        )
        _ = try metrics.expectMeter("fetchkit_delivery_backlog")
        controllers.removeAll()
        await store.close()
    }
}
