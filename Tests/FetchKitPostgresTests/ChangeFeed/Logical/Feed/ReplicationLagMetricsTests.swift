import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTestSupport
import FetchKitTesting
import MetricsTestKit
import Testing

/// The logical feed reports how far behind the server's log it is, in bytes and in seconds, with the store's label;
/// the store's pools how long jobs wait for a connection.
@Suite("PostgreSQL: replication lag and pool wait metrics", .requiresPostgreSQL)
struct ReplicationLagMetricsTests {
    @Test func theLogicalFeedReportsItsLagAndThePoolsTheirWaits() async throws {
        let metrics = ProcessMetrics.shared
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = .logical
        options.label = "metrics-replication"
        options.listener.lagCheckInterval = .milliseconds(20)
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        for index in 0..<20 {
            try await store.write { tx in _ = try tx.insert(Fixtures.TodoRecord(title: "lagged \(index)")) }
        }
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        // Readings come ten times a second at most: wait for a few.
        let dimensions = [("store", "metrics-replication")]
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? metrics.expectGauge("fetchkit_replication_lag_seconds", dimensions))?.values.count ?? 0 < 3,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        let bytes = try metrics.expectGauge("fetchkit_replication_lag_bytes", dimensions)
        let seconds = try metrics.expectGauge("fetchkit_replication_lag_seconds", dimensions)
        #expect(!bytes.values.isEmpty && bytes.values.allSatisfy { $0 >= 0 })
        #expect(seconds.values.count >= 3 && seconds.values.allSatisfy { $0 >= 0 && $0 < 60 }, "\(seconds.values)")
        for pool in ["writer", "reader"] {
            let waits = metrics.timers(label: "fetchkit_pool_wait_seconds", dimensions: dimensions + [("pool", pool)])
            #expect(!waits.flatMap(\.values).isEmpty, "no wait recorded for the \(pool) pool")
        }
        let delivered = metrics.counterTotal(
            label: "fetchkit_batches_delivered_total", dimensions: dimensions + [("feed", "logical")])
        #expect(delivered >= 1)
        await store.close()
    }
}
