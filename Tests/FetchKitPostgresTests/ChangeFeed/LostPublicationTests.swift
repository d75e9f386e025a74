import FetchKit
import FetchKitFixtures
import Testing

@testable import FetchKitPostgres

/// A write whose change the feed never publishes, while the feed answers its checks (a notification lost on the way,
/// a pooler that dropped it), ends in a resync: no controller stays behind it without knowing.
@Suite("PostgreSQL: a write the feed never publishes resyncs", .requiresPostgreSQL)
struct LostPublicationTests {
    @Test func syncAfterAnUnpublishedWriteShowsTheDatabase() async throws {
        var options = PostgresStore.Options(readerCount: 1)
        options.listener.publishTimeout = .milliseconds(200)
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        // A change the feed never hears of (the capture triggers do not fire for a replica session)...
        try await PostgresServer.administer(
            "SET session_replication_role = replica; UPDATE \(namespace).todo SET title = 'unheard' WHERE id = 6")
        // ...and a write of the store whose publication is lost: a transaction the feed will never publish.
        let source = try #require(store.source)
        source.completions.expect(-42)
        await controller.sync()
        #expect(
            controller.fetchedObjects.contains { $0["title"] == .text("unheard") },
            "sync() returned with the controller behind the database")
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        await store.close()
    }
}
