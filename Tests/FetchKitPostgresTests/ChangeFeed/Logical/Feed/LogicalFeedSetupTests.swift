import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

/// What the logical feed needs of the server and the role, each missing piece a clear error naming the fix —
/// and ``PostgresStore/ChangeFeedKind/auto`` falling back to the triggers.
@Suite("PostgreSQL logical feed setup", .requiresPostgreSQL)
struct LogicalFeedSetupTests {
    static func options(_ feed: PostgresStore.ChangeFeedKind) -> PostgresStore.Options {
        var options = PostgresStore.Options(readerCount: 1)
        options.changeFeed = feed
        return options
    }

    @Test func walLevelNotLogicalIsAClearErrorAndAutoUsesTheTriggers() async throws {
        let server = try await PrivateServer.onThread { try PrivateServer(settings: "-c wal_level=replica") }
        defer { server.stop() }
        await #expect {
            try await PostgresStore.open(url: server.url, schema: Fixtures.schema, options: Self.options(.logical))
        } throws: { error in
            (error as? FetchKitError)?.code == .unsupported && "\(error)".contains("wal_level = logical")
        }
        let store = try await PostgresStore.open(
            url: server.url, schema: Fixtures.schema, options: Self.options(.auto))
        #expect(store.changeFeedKind == .triggers)
        #expect("\(store)".contains("change feed: triggers"))
        await store.close()
    }

    @Test func exhaustedSlotsNameTheSetting() async throws {
        let server = try await PrivateServer.onThread { try PrivateServer(settings: "-c max_replication_slots=1") }
        defer { server.stop() }
        let filler = try await ConnectionPoolFactory.single(server.url)
        try await filler.run { connection in
            _ = try connection.run("SELECT pg_create_logical_replication_slot('filler', 'pgoutput')")
        }
        await filler.shutDown()
        await #expect {
            try await PostgresStore.open(url: server.url, schema: Fixtures.schema, options: Self.options(.logical))
        } throws: { error in
            (error as? FetchKitError)?.code == .tooManyConnections && "\(error)".contains("max_replication_slots")
        }
    }

    /// A persistent slot the server gave up (it kept more log than `max_slot_wal_keep_size` while its store was
    /// away) is made again: the store opens and is live.
    @Test func anInvalidatedSlotIsMadeAgain() async throws {
        let server = try await PrivateServer.onThread {
            try PrivateServer(settings: "-c max_slot_wal_keep_size=1MB")
        }
        defer { server.stop() }
        var options = Self.options(.logical)
        options.replicationSlot = "fkt_kept"
        let first = try await PostgresStore.open(url: server.url, schema: Fixtures.schema, options: options)
        await first.close()
        let admin = try await ConnectionPoolFactory.single(server.url)
        let status = try await admin.run { connection -> String? in
            for _ in 0..<4 {
                _ = try connection.run(
                    "INSERT INTO note (slug, body, pinned) SELECT 'n' || g, repeat('x', 500), false "
                        + "FROM generate_series(1, 20000) AS g; DELETE FROM note; "
                        + "SELECT pg_switch_wal(); CHECKPOINT"
                )
            }
            return try connection.execute(
                "SELECT wal_status::text AS s FROM pg_replication_slots WHERE slot_name = 'fkt_kept'"
            ).rows().first?["s", as: String.self]
        }
        await admin.shutDown()
        #expect(status == "lost")
        let second = try await PostgresStore.open(url: server.url, schema: Fixtures.schema, options: options)
        try await second.write { tx in try Fixtures.insertSampleData(tx) }
        let (controller, recorder) = try await PostgresLiveResultsTests.liveController(on: second)
        try await second.write { tx in try tx.delete("Todo", key: 3) }
        try await PostgresLiveResultsTests.converge(controller, recorder, in: second)
        await second.close()
    }

    @Test func aRoleWithoutReplicationIsPermissionDeniedNamingTheFix() async throws {
        let role = PostgresServer.uniqueName("fkt_norep")
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer(
            "CREATE ROLE \(role) LOGIN; CREATE SCHEMA \(namespace) AUTHORIZATION \(role)")
        let text = try PostgresServer.urlText(searchPath: namespace)
        let url = try PostgresURL(text.replacingOccurrences(of: "://postgres@", with: "://\(role)@"))
        await #expect {
            try await PostgresStore.open(url: url, schema: Fixtures.schema, options: Self.options(.logical))
        } throws: { error in
            (error as? FetchKitError)?.code == .permissionDenied
                && "\(error)".contains("ALTER ROLE \"\(role)\" REPLICATION")
        }
    }
}

/// A one-connection pool for a URL's text.
enum ConnectionPoolFactory {
    static func single(_ url: String) async throws -> FetchKitBackendKit.ConnectionPool<PostgresConnection> {
        let parsed = try PostgresURL(url)
        return try await FetchKitBackendKit.ConnectionPool<PostgresConnection>.start(name: "fkt-pg-one", size: 1) { _ in
            try PostgresConnection.open(parsed)
        }
    }
}
