import FetchKit
import FetchKitFixtures
import FetchKitTestSupport
import FetchKitTesting
import Logging
import Testing

@testable import FetchKitPostgres

/// A lost feed connection is the store's event, told once at info — not once per live controller: a server with
/// thousands of controllers writes a handful of lines when its database blips, each controller's own lines at debug
/// with its identifier.
@Suite("PostgreSQL: a lost feed connection logs a few lines for the store", .requiresPostgreSQL)
struct QuietLogsTests {
    @Test(arguments: [PostgresStore.ChangeFeedKind.triggers, .logical])
    func aThousandControllersThroughAKilledConnection(feed: PostgresStore.ChangeFeedKind) async throws {
        let log = LogCapture()
        var options = PostgresStore.Options(readerCount: 2, logger: log.logger)
        options.changeFeed = feed
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let requests = StoreConformance.liveRequests
        let watched = try await StoreConformance.liveControllers(
            on: store, requests: (0..<1_000).map { requests[$0 % requests.count] })
        let start = log.count

        let pid = try #require(store.source?.backendPID)
        try await PostgresServer.administer("SELECT pg_terminate_backend(\(pid))")
        // A write while the feed reconnects reaches every controller that shows it, after the resync.
        try await store.write { tx in
            _ = try tx.insert(Fixtures.TodoRecord(title: "written during the outage", priority: 2, categoryID: 1))
        }
        for (index, (controller, recorder)) in watched.enumerated() {
            _ = try await ResultsOracle.converge(
                controller, recorder, in: store, within: .seconds(index == 0 ? 60 : 10))
        }

        let outage = log.lines(since: start)
        let loud = outage.filter { $0.level >= .info }
        #expect(
            loud.count <= 5, "\(loud.count) lines at info or above:\n\(loud.map(\.description).joined(separator: "\n"))"
        )
        #expect(loud.allSatisfy { $0.level == .info }, "\(loud.filter { $0.level > .info })")
        #expect(
            loud.contains { $0.message.contains("cannot deliver") && $0.metadata["controllers"] != nil },
            "no line says how many controllers wait for the feed: \(loud)")
        #expect(loud.contains { $0.message.contains("lost its connection") }, "\(loud)")
        // Each controller's own lines, if any, are debug or trace and name the controller.
        let perController = outage.filter { $0.metadata["fetchkit.entity"] != nil }
        #expect(perController.allSatisfy { $0.level <= .debug && $0.metadata["fetchkit.controller"] != nil })
        await store.close()
    }
}
