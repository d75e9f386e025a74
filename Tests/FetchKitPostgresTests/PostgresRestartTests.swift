import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// A server restart under a live controller: the listener reconnects and resyncs, the store's connections
/// reconnect on their next use, and the controller converges to the database, with valid batches.
@Suite("PostgreSQL server restart", .requiresPostgreSQL)
struct PostgresRestartTests {
    /// Runs `body` until it does not throw ``FetchKitError/Code/connectionLost`` (up to 10 s).
    static func retrying<T>(_ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try await body()
            } catch let error as FetchKitError where error.code == .connectionLost && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// On each feed: the triggers, the log through a temporary slot, the log through a persistent one.
    @Test(arguments: ["triggers", "logical", "logical with a persistent slot"])
    func aRestartDuringWritesLosesNoChange(feed: String) async throws {
        // The server scripts block (initdb, pg_ctl): run them on a thread of their own.
        let server = try await PrivateServer.onThread { try PrivateServer() }
        defer { server.stop() }
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = feed == "triggers" ? .triggers : .logical
        if feed.hasSuffix("slot") { options.replicationSlot = "fkt_restart" }
        options.listener.reconnectBackoff = .milliseconds(20)...(.milliseconds(500))
        options.listener.pingInterval = .milliseconds(200)
        let store = try await PostgresStore.open(url: server.url, schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        for id in 100..<110 as Range<Int64> {
            try await store.write { tx in
                try tx.insert(Fixtures.TodoRecord(id: id, title: "before \(id)", categoryID: 1))
            }
        }
        try await PrivateServer.onThread { try server.restart() }
        // Writes right after the restart: the first on a dead connection fails and is retried, as an app would.
        for id in 110..<120 as Range<Int64> {
            _ = try await Self.retrying {
                try await store.write { tx in
                    try tx.insert(Fixtures.TodoRecord(id: id, title: "after \(id)", categoryID: 2))
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while store.listenerStatus != .listening && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(store.listenerStatus == .listening)
        try await Self.retrying { try await PostgresLiveResultsTests.converge(controller, recorder, in: store) }
        #expect(controller.fetchedObjects.count == 30)
        await store.close()
    }
}
