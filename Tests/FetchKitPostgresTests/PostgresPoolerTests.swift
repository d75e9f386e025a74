import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

/// A PgBouncer in transaction pooling mode in front of the test server: a listener behind it would never
/// hear a notification, so opening a store whose listener connects through it fails, saying what to do; a
/// listener pointed at a direct connection works while the store's own URL stays as it is.
@Suite("PostgreSQL behind a transaction-mode pooler", .requiresPostgreSQL)
struct PostgresPoolerTests {
    /// A PgBouncer of the test's own (Integration/scripts/pgbouncer-start.sh), in front of `DATABASE_URL`.
    final class PgBouncer: Sendable {
        let url: String
        private let environment: [String: String]

        init(poolMode: String = "transaction") throws {
            let output = try PrivateServer.script(
                "pgbouncer-start.sh",
                environment: ["DATABASE_URL": try PostgresServer.requiredURLText(), "POOL_MODE": poolMode])
            environment = PrivateServer.exports(output)
            guard let url = environment["PGBOUNCER_URL"] else { throw PrivateServer.ScriptFailure(output: output) }
            self.url = url
        }

        func stop() {
            _ = try? PrivateServer.script("pgbouncer-stop.sh", environment: environment)
        }
    }

    @Test func aListenerBehindATransactionPoolerIsRefusedWithWhatToDo() async throws {
        let bouncer = try await PrivateServer.onThread { try PgBouncer() }
        defer { bouncer.stop() }
        // The pooler itself answers queries: only the listener cannot work through it.
        let probe = try await ConnectionPool<PostgresConnection>.start(name: "fkt-pgb", size: 1) { _ in
            try PostgresConnection.open(try PostgresURL(bouncer.url))
        }
        let answered = try await probe.run { try $0.run("SELECT 1").rowCount }
        #expect(answered == 1)
        await probe.shutDown()

        var options = PostgresStore.Options(readerCount: 1)
        options.listener.url = try PostgresURL(bouncer.url)
        let error = await #expect(throws: FetchKitError.self) {
            try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        }
        guard let error, error.code == .unsupported else {
            Issue.record("expected unsupported, got \(String(describing: error))")
            return
        }
        let message = error.message
        #expect(
            message.contains("transaction-mode pooler") && message.contains("fetchkit.postgres.listenerURL"),
            "\(message)")
    }

    @Test func aListenerOnADirectConnectionFollowsWritesMadeThroughThePooler() async throws {
        let bouncer = try await PrivateServer.onThread { try PgBouncer() }
        defer { bouncer.stop() }
        let namespace = PostgresServer.uniqueName("fkt")
        var options = PostgresStore.Options(readerCount: 1)
        options.listener.url = try PostgresServer.url()
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        // Another service writes through the pooler: the triggers notify, the direct listener hears it.
        let client = try await ConnectionPool<PostgresConnection>.start(name: "fkt-pgb", size: 1) { _ in
            try PostgresConnection.open(try PostgresURL(bouncer.url))
        }
        try await client.run { connection in
            _ = try connection.run("UPDATE \(namespace).todo SET title = 'through the pooler' WHERE id = 4")
        }
        await client.shutDown()
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(controller.fetchedObjects.contains { $0["title"] == .text("through the pooler") })
        await store.close()
    }

    @Test func aSessionPoolerKeepsTheListenerWorking() async throws {
        let bouncer = try await PrivateServer.onThread { try PgBouncer(poolMode: "session") }
        defer { bouncer.stop() }
        var options = PostgresStore.Options(readerCount: 1)
        options.listener.url = try PostgresURL(bouncer.url)
        let store = try await PostgresServer.isolatedStore(schema: Fixtures.schema, options: options)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: store)
        try await store.write { tx in _ = try tx.update("Todo", key: 6, set: ["title": "via a session pool"]) }
        try await PostgresLiveResultsTests.converge(controller, recorder, in: store)
        #expect(store.listenerStatus == .listening)
        await store.close()
    }
}
