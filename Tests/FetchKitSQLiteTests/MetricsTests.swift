import CoreMetrics
import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import MetricsTestKit
import Testing

/// FetchKit's swift-metrics metrics reach the backend the app bootstrapped, each with its store's dimensions.
///
/// The metrics system is bootstrapped once per process (``ProcessMetrics``) and tests run side by side: each test
/// gives its store a label of its own and reads the metrics of that `store` dimension alone.
@Suite("Metrics")
struct MetricsTests {
    /// A store labelled `label` (opened after the metrics backend is bootstrapped), on `path` or in memory.
    static func store(_ label: String, path: String? = nil) async throws -> SQLiteStore {
        _ = ProcessMetrics.shared
        var options = SQLiteStore.Options.testing()
        options.label = label
        let store =
            if let path {
                try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: options)
            } else {
                try await SQLiteStore.inMemory(schema: Fixtures.schema, options: options)
            }
        try await store.seed()
        return store
    }

    /// A fetched controller of `format` (or of every todo) with a recorder as its delegate.
    static func controller(
        on store: SQLiteStore, _ format: String?, offset: Int = 0
    ) async throws -> (ResultsController<Row>, ResultsRecorder<Row>) {
        let controller = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", predicate: try format.map { try FetchPredicate(format: $0) } ?? .true,
                sortDescriptors: [.ascending("id")], fetchOffset: offset))
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        return (controller, recorder)
    }

    @Test("live controllers, batches, incremental and refetched changes, permanent failures")
    func countsWhatControllersDo() async throws {
        let metrics = ProcessMetrics.shared
        let store = try await Self.store("metrics-counts")
        let dimensions = [("store", "metrics-counts")]
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
        let live = try metrics.expectMeter("fetchkit_controllers", dimensions + [("feed", "hooks")])
        #expect(live.lastValue == 50, "fetchkit_controllers is \(live.lastValue ?? 0) with 50 controllers alive")
        for step in 0..<5 {
            try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": .text("step \(step)")]) }
        }
        var delivered = 0
        for (controller, recorder) in zip(controllers, recorders) {
            delivered += try await ResultsOracle.converge(controller, recorder, in: store)
        }
        #expect(delivered > 0)
        #expect(
            metrics.counterTotal(label: "fetchkit_batches_delivered_total", dimensions: dimensions) == Int64(delivered))
        // Five requests, each led by one controller that applies the change (the others follow its batches).
        #expect(
            metrics.counterTotal(
                label: "fetchkit_changes_applied_total", dimensions: dimensions + [("path", "incremental")]) >= 5)
        // A permanent failure is counted.
        try await store.write { tx in
            _ = try tx.execute(#"ALTER TABLE "todo" RENAME COLUMN "title" TO "headline""#, [])
            _ = try tx.execute(#"UPDATE "todo" SET "priority" = 4 WHERE "id" = 2"#, [])
        }
        await controllers[0].sync()
        #expect(controllers[0].status.error != nil)
        #expect(
            metrics.counterTotal(label: "fetchkit_failures_total", dimensions: dimensions + [("kind", "permanent")]) > 0
        )
        _ = try metrics.expectMeter("fetchkit_delivery_backlog", dimensions + [("feed", "hooks")])
        controllers.removeAll()
        await store.close()
    }

    @Test("commit to delegate latency, and batches, per entity and route")
    func timesDeliveriesByRoute() async throws {
        let metrics = ProcessMetrics.shared
        let store = try await Self.store("metrics-latency")
        let cases: [(ControllerRouting, String?, Int)] = [
            (.equality, "priority == 3", 0), (.range, "ordering BETWEEN {0, 4}", 0),
            (.scan, "priority == 3 OR done == YES", 0), (.database, nil, 1)
        ]
        var watched: [(ResultsController<Row>, ResultsRecorder<Row>)] = []
        for (routing, format, offset) in cases {
            let (controller, recorder) = try await Self.controller(on: store, format, offset: offset)
            #expect(controller.statistics.routing == routing, "\(format ?? "offset")")
            watched.append((controller, recorder))
        }
        let follower = try await Self.controller(on: store, "priority == 3")
        #expect(follower.0.statistics.routing == .follower)
        watched.append(follower)

        for index in 0..<3 {
            try await store.write { tx in
                _ = try tx.insert(
                    Fixtures.TodoRecord(title: "timed \(index)", priority: 3, ordering: 1, done: true, categoryID: 1))
            }
        }
        for (controller, recorder) in watched {
            _ = try await ResultsOracle.converge(controller, recorder, in: store)
        }
        for routing in [ControllerRouting.equality, .range, .scan, .database, .follower] {
            let dimensions = [("store", "metrics-latency"), ("entity", "Todo"), ("route", routing.rawValue)]
            #expect(metrics.counterTotal(label: "fetchkit_batches_delivered_total", dimensions: dimensions) >= 1)
            let samples = metrics.timers(label: "fetchkit_delivery_latency_seconds", dimensions: dimensions)
                .flatMap(\.values)
            #expect(!samples.isEmpty, "no latency recorded for \(routing)")
            #expect(samples.allSatisfy { $0 >= 0 && $0 < 30_000_000_000 }, "\(routing): \(samples) ns")
        }
        await store.close()
    }

    /// Followers read through update sequences (a server's sessions) publish the leader's batches as their own:
    /// each such delivery is timed from the leader's change too, not only counted.
    @Test func followersReadingUpdateSequencesTimeTheirDeliveries() async throws {
        let metrics = ProcessMetrics.shared
        let store = try await Self.store("metrics-follower-sequences")
        let request = FetchRequest<Row>(
            entity: "Todo", predicate: .key("done") == false, sortDescriptors: [.ascending("id")])
        var controllers: [ResultsController<Row>] = []
        var readers: [Task<[ResultsBatch<Row>], any Error>] = []
        for _ in 0..<4 {
            let controller = ResultsController(store: store, request: request)
            let updates = controller.updates()
            readers.append(
                Task {
                    var batches: [ResultsBatch<Row>] = []
                    for try await batch in updates { batches.append(batch) }
                    return batches
                })
            try await controller.performFetch()
            controllers.append(controller)
        }
        #expect(controllers.dropFirst().allSatisfy { $0.statistics.routing == .follower })
        for index in 0..<3 {
            try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": .text("read \(index)")]) }
        }
        for controller in controllers {
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        controllers.removeAll()  // ends the sequences
        for reader in readers {
            for batch in try await reader.value where batch.changeset != nil {
                try ResultsOracle.check(batch, primaryKey: "id")
            }
        }
        let dimensions = [("store", "metrics-follower-sequences"), ("entity", "Todo"), ("route", "follower")]
        let delivered = metrics.counterTotal(label: "fetchkit_batches_delivered_total", dimensions: dimensions)
        let timed = metrics.timers(label: "fetchkit_delivery_latency_seconds", dimensions: dimensions)
            .flatMap(\.values)
        #expect(delivered >= 3, "followers delivered \(delivered) batches")
        #expect(Int64(timed.count) == delivered, "\(delivered) follower batches, \(timed.count) timed")
        await store.close()
    }

    @Test("resyncs by reason, and how long jobs wait for a connection")
    func countsResyncsAndPoolWaits() async throws {
        let metrics = ProcessMetrics.shared
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("metrics.sqlite")
        let store = try await Self.store("metrics-resyncs", path: path)
        let (controller, recorder) = try await Self.controller(on: store, nil)
        // Another connection's write: the store notices it by the file's data version and resyncs.
        let other = try await SQLiteStore.open(path: path, schema: Fixtures.schema)
        try await other.write { tx in _ = try tx.insert(Fixtures.TodoRecord(title: "from another connection")) }
        await other.close()
        _ = try await ResultsOracle.converge(controller, recorder, in: store)
        let dimensions = [("store", "metrics-resyncs"), ("feed", "hooks")]
        #expect(
            metrics.counterTotal(label: "fetchkit_resyncs_total", dimensions: dimensions + [("reason", "feed")]) >= 1)
        for pool in ["writer", "reader"] {
            let waits = metrics.timers(
                label: "fetchkit_pool_wait_seconds", dimensions: [("store", "metrics-resyncs"), ("pool", pool)])
            #expect(!waits.flatMap(\.values).isEmpty, "no wait recorded for the \(pool) pool")
        }
        await store.close()
    }

    @Test("a controller behind the store reports .catchingUp and fetchkit_delivery_lag_seconds, then .live")
    func reportsDeliveryLag() async throws {
        let metrics = ProcessMetrics.shared
        let store = try await Self.store("metrics-lag")
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
        let gauge = try metrics.expectGauge(
            "fetchkit_delivery_lag_seconds", [("store", "metrics-lag"), ("feed", "hooks")])
        #expect(gauge.values.contains { $0 >= 0.25 }, "fetchkit_delivery_lag_seconds: \(gauge.values.suffix(8))")
        // Caught up: live again, and the results are the database's.
        await controller.sync()
        #expect(controller.status == .live)
        #expect(controller.fetchedObjects.map { $0 } == (try await store.fetch(request)))
        await store.close()
    }
}
