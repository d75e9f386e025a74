import CoreMetrics
import FetchKit
import FetchKitFixtures
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

    @Test("a controller behind the store reports .catchingUp and fetchkit_delivery_lag_seconds, then .live")
    func reportsDeliveryLag() async throws {
        let metrics = Self.metrics
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let request = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")])
        let controller = ResultsController(store: store, request: request)
        try await controller.performFetch()
        #expect(controller.status == .live)
        // Held, the controller cannot apply the change routed to it: its lag grows past the threshold.
        let hold = await controller.holdProcessing()
        try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": .text("behind")]) }
        await hold.waitForRoutedChanges()
        var reported: Duration?
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while reported == nil, clock.now < deadline {
            if case .catchingUp(let lag) = controller.status { reported = lag }
            try await Task.sleep(for: .milliseconds(50))
        }
        hold.release()
        let lag = try #require(reported, "the status stayed \(controller.status)")
        // Past the threshold (a quarter of a second), reported in steps of 100 ms.
        #expect(lag >= .milliseconds(200))
        let gauge = try metrics.expectGauge("fetchkit_delivery_lag_seconds")
        #expect(gauge.values.contains { $0 >= 0.25 }, "fetchkit_delivery_lag_seconds: \(gauge.values.suffix(8))")
        // Caught up: live again, and the results are the database's.
        await controller.sync()
        #expect(controller.status == .live)
        #expect(controller.fetchedObjects.map { $0 } == (try await store.fetch(request)))
        await store.close()
    }
}
