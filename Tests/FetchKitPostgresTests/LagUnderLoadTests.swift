import FetchKit
import FetchKitBackendKit
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitPostgres

/// A short version of the load that showed controllers reading `.live` seconds behind: pgbench's two clients updating
/// single rows of a watched 100-row table as fast as they can, while another client inserts marker rows. From a
/// marker's commit until the controller shows it, no status read may say `.live` once the controller is further
/// behind than its threshold (plus the feed's lag-check interval, the resolution of what it knows); writes through
/// the store keep read-your-writes through `sync()`; and every controller ends equal to a fresh fetch.
@Suite("PostgreSQL: lag under load", .requiresPostgreSQL)
struct LagUnderLoadTests {
    static let item = Entity(
        "Item", table: "item", primaryKey: .integer("id"), attributes: [Attribute("n", .integer)])

    /// pgbench, updating random rows of `table` (1…100) for `seconds`, with `clients` connections.
    static func pgbench(url: String, table: String, clients: Int, seconds: Int) throws -> ChildProcess {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-load-\(UUID()).sql")
        try "\\set id random(1, 100)\nUPDATE \(table) SET n = n + 1 WHERE id = :id;\n".write(
            to: script, atomically: true, encoding: .utf8)
        let executable = try #require(
            ["/usr/bin/pgbench", "/usr/lib/postgresql/15/bin/pgbench"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }, "pgbench is not installed (Debian: postgresql-client)")
        return try ChildProcess(
            URL(fileURLWithPath: executable),
            ["-n", "-c", "\(clients)", "-j", "\(clients)", "-T", "\(seconds)", "-f", script.path, url])
    }

    @Test(arguments: [PostgresStore.ChangeFeedKind.logical, .triggers])
    func noStatusReadsLiveBehindItsThreshold(feed: PostgresStore.ChangeFeedKind) async throws {
        let namespace = PostgresServer.uniqueName("fkt_load")
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = feed
        let store = try await PostgresServer.isolatedStore(
            schema: try Schema([Self.item]), namespace: namespace, options: options)
        try await store.write { tx in
            for id in 1...100 { try tx.insert(["id": .integer(Int64(id)), "n": 0], into: "Item") }
        }
        let controller = ResultsController(
            store: store, request: FetchRequest(entity: "Item", sortDescriptors: [.ascending("id")]))
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        let threshold = controller.catchingUpThreshold
        let allowance = options.listener.lagCheckInterval + .milliseconds(100)
        let load = try Self.pgbench(
            url: try PostgresServer.requiredURLText(), table: "\(namespace).item", clients: 2, seconds: 5)
        let outside = try await PostgresServer.pool(name: "fkt-load", searchPath: namespace)
        var liveBehind: [Duration] = []
        var unseenAfterSync = 0
        let clock = ContinuousClock()
        let end = clock.now + .seconds(4)
        var marker: Int64 = 1_000
        while clock.now < end {
            marker += 1
            let key = marker
            // A marker row from another client, then a row through the store.
            try await outside.run { connection in
                _ = try connection.run("INSERT INTO item (id, n) VALUES (\(key), -1)")
            }
            let committed = clock.now
            while controller.rowPath(forKey: .integer(key)) == nil, clock.now - committed < .seconds(30) {
                let status = controller.status
                let behind = clock.now - committed
                // Sampled after the status: the controller was at least this far behind when it was read.
                if status == .live, controller.rowPath(forKey: .integer(key)) == nil, behind > threshold + allowance {
                    liveBehind.append(behind)
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            let written = key + 100_000
            try await store.write { tx in try tx.insert(["id": .integer(written), "n": -2], into: "Item") }
            await controller.sync()
            if controller.rowPath(forKey: .integer(written)) == nil { unseenAfterSync += 1 }
        }
        _ = try await load.exit(within: .seconds(60))
        await outside.shutDown()
        #expect(liveBehind.isEmpty, "\(feed): .live while behind by \(liveBehind.prefix(5))")
        #expect(unseenAfterSync == 0, "\(feed): \(unseenAfterSync) writes not shown after sync()")
        // A whole test suite shares the two cores: the feed may take a while to drain what the load left.
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store, within: .seconds(60))
        await store.close()
    }
}
