import FetchKit
import FetchKitPostgres
import Foundation
import Testing

/// The PostgreSQL keys a deployment's configuration holds, read by the backend (no server needed).
@Suite("PostgreSQL configuration keys")
struct PostgresConfigurationTests {
    private static func configuration(_ variables: [String: String]) async throws -> StoreConfiguration {
        try StoreConfiguration(
            reader: try await StoreConfiguration.reader(
                environment: ["FETCHKIT_STORE_URL": "postgres://app:hunter2@db.internal/app"].merging(variables) { $1 })
        )
    }

    @Test func everyKeyIsRead() async throws {
        let options = try PostgresStore.Options(
            configuration: try await Self.configuration([
                "FETCHKIT_STORE_READERS": "8",
                "FETCHKIT_POSTGRES_KEEPALIVE_IDLE_SECONDS": "7",
                "FETCHKIT_POSTGRES_KEEPALIVE_INTERVAL_SECONDS": "3",
                "FETCHKIT_POSTGRES_KEEPALIVE_COUNT": "4",
                "FETCHKIT_POSTGRES_RECONNECT_MIN_MILLISECONDS": "20",
                "FETCHKIT_POSTGRES_RECONNECT_MAX_MILLISECONDS": "900",
                "FETCHKIT_POSTGRES_NOTIFICATION_ROW_LIMIT": "250",
                "FETCHKIT_POSTGRES_PING_TIMEOUT_MILLISECONDS": "750",
                "FETCHKIT_POSTGRES_PUBLISH_TIMEOUT_MILLISECONDS": "1500",
                "FETCHKIT_POSTGRES_LISTENER_URL": "postgres://app:hunter3@db-direct.internal/app",
                "FETCHKIT_POSTGRES_CHANGE_CAPTURE": "false"
            ]))
        #expect(!options.changeCapture && PostgresStore.Options().changeCapture)
        // The default the capture subcommands print too (CaptureSQLCommandTests pins theirs).
        #expect(PostgresStore.Options().notificationRowLimit == 10_000)
        #expect(options.readerCount == 8 && options.notificationRowLimit == 250)
        #expect(options.listener.keepaliveIdle == .seconds(7) && options.listener.keepaliveInterval == .seconds(3))
        #expect(options.listener.keepaliveCount == 4)
        #expect(options.listener.reconnectBackoff == .milliseconds(20)...(.milliseconds(900)))
        #expect(options.listener.pingTimeout == .milliseconds(750))
        #expect(options.listener.publishTimeout == .milliseconds(1500))
        #expect(options.listener.url?.redacted == "postgres://app:***@db-direct.internal/app")
    }

    @Test func aChangeCaptureThatIsNotABooleanIsRefused() async throws {
        let configuration = try await Self.configuration(["FETCHKIT_POSTGRES_CHANGE_CAPTURE": "sometimes"])
        let error = try #require(throws: FetchKitError.self) {
            try PostgresStore.Options(configuration: configuration)
        }
        #expect(error.code == .invalidValue && error.message.contains("fetchkit.postgres.changeCapture"))
    }

    @Test func unsetKeysKeepTheDefaults() async throws {
        let configured = try PostgresStore.Options(configuration: try await Self.configuration([:]))
        let defaults = PostgresStore.Options()
        #expect(configured.readerCount == defaults.readerCount)
        #expect(configured.listener.reconnectBackoff == defaults.listener.reconnectBackoff)
        #expect(configured.listener.publishTimeout == defaults.listener.publishTimeout)
        #expect(configured.listener.url == nil)
        // Only the minimum given: the maximum stays the default's.
        let low = try PostgresStore.Options(
            configuration: try await Self.configuration([
                "FETCHKIT_POSTGRES_RECONNECT_MIN_MILLISECONDS": "100"
            ]))
        #expect(low.listener.reconnectBackoff == .milliseconds(100)...(.milliseconds(5_000)))
    }

    @Test func badValuesSayWhichKey() async throws {
        await #expect(
            throws: FetchKitError.invalidValue(
                "fetchkit.postgres.reconnectMinMilliseconds (900) exceeds reconnectMaxMilliseconds (20)")
        ) {
            try PostgresStore.Options(
                configuration: try await Self.configuration([
                    "FETCHKIT_POSTGRES_RECONNECT_MIN_MILLISECONDS": "900",
                    "FETCHKIT_POSTGRES_RECONNECT_MAX_MILLISECONDS": "20"
                ]))
        }
        await #expect(throws: FetchKitError.invalidValue("fetchkit.postgres.keepaliveCount must be positive (got -1)"))
        {
            try PostgresStore.Options(
                configuration: try await Self.configuration(["FETCHKIT_POSTGRES_KEEPALIVE_COUNT": "-1"]))
        }
        do {
            _ = try PostgresStore.Options(
                configuration: try await Self.configuration([
                    "FETCHKIT_POSTGRES_LISTENER_URL": "mysql://app:hunter3@db/app"
                ]))
            Issue.record("a mysql listener URL was accepted")
        } catch let error as FetchKitError where error.code == .invalidURL {
            let message = error.message
            #expect(message.hasPrefix("fetchkit.postgres.listenerURL: ") && !message.contains("hunter3"), "\(message)")
        }
    }
}
