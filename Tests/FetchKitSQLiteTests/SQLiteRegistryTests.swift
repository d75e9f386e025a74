import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

@Suite("SQLite through the store registry")
struct SQLiteRegistryTests {
    @Test func sqliteURLsOpenTheirStore() async throws {
        let registry: StoreRegistry = [SQLiteStore.self]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("configured.sqlite")
        let reader = try await StoreConfiguration.reader(environment: [
            "FETCHKIT_STORE_URL": "sqlite://\(file)", "FETCHKIT_STORE_READERS": "2",
            "FETCHKIT_SQLITE_DATA_VERSION_POLL_MILLISECONDS": "10"
        ])
        let store = try await registry.open(config: reader, schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 10)
        #expect(store is SQLiteStore)
        await store.close()
        #expect(FileManager.default.fileExists(atPath: file))

        let memory = try await registry.open(StoreConfiguration(url: "sqlite::memory:"), schema: Fixtures.schema)
        #expect(try await memory.count(FetchRequest(entity: "Todo")) == 0)
        await memory.close()

        await #expect(throws: FetchKitError.self) {
            _ = try await registry.open(StoreConfiguration(url: "sqlite:"), schema: Fixtures.schema)
        }
        do {
            _ = try await registry.open(
                StoreConfiguration(url: "postgres://app:hunter2@db/app"), schema: Fixtures.schema)
            Issue.record("a registry without PostgreSQL opened a postgres URL")
        } catch let error as FetchKitError where error.code == .invalidURL {
            let message = error.message
            #expect(message == "no store backend for URLs of scheme 'postgres:'; registered: sqlite")
        }
    }

    @Test func theSQLiteKeysAreReadByTheBackend() async throws {
        let configuration = try StoreConfiguration(
            reader: try await StoreConfiguration.reader(environment: [
                "FETCHKIT_STORE_URL": "sqlite::memory:", "FETCHKIT_STORE_READERS": "3",
                "FETCHKIT_SQLITE_DATA_VERSION_POLL_MILLISECONDS": "25", "FETCHKIT_LOG_LEVEL": "info"
            ]))
        let options = try SQLiteStore.Options(configuration: configuration)
        #expect(options.readerCount == 3 && options.dataVersionPollInterval == .milliseconds(25))
        #expect(options.logger.logLevel == .info)
        #expect(
            try SQLiteStore.Options(configuration: StoreConfiguration(url: "sqlite::memory:")).dataVersionPollInterval
                == SQLiteStore.Options().dataVersionPollInterval)
        let zero = try StoreConfiguration(
            reader: try await StoreConfiguration.reader(environment: [
                "FETCHKIT_STORE_URL": "sqlite::memory:", "FETCHKIT_SQLITE_DATA_VERSION_POLL_MILLISECONDS": "0"
            ]))
        #expect(
            throws: FetchKitError.invalidValue("fetchkit.sqlite.dataVersionPollMilliseconds must be positive (got 0)")
        ) {
            try SQLiteStore.Options(configuration: zero)
        }
    }
}
