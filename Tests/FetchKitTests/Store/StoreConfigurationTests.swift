import FetchKit
import Foundation
import Testing

@Suite("Store configuration and registry")
struct StoreConfigurationTests {
    @Test func theCoreKeysAreReadFromTheEnvironmentAndTheReaderIsKeptForTheBackend() async throws {
        let reader = try await StoreConfiguration.reader(environment: [
            "FETCHKIT_STORE_URL": "postgres://app:hunter2@db.internal/app",
            "FETCHKIT_STORE_READERS": "8",
            "FETCHKIT_LOG_LEVEL": "debug",
            "FETCHKIT_MYSTORE_POLL_MILLISECONDS": "25",
            "FETCHKIT_MYSTORE_ZERO": "0",
            "FETCHKIT_MYSTORE_MIRROR_URL": "mystore://app:hunter3@mirror/app"
        ])
        let configuration = try StoreConfiguration(reader: reader)
        #expect(configuration.url == "postgres://app:hunter2@db.internal/app")
        #expect(configuration.redactedURL == "postgres://app:***@db.internal/app")
        #expect(configuration.readerCount == 8)
        #expect(configuration.logger.logLevel == .debug)
        // A backend's own keys, read through the kept reader.
        #expect(try configuration.positiveInteger("fetchkit.mystore.pollMilliseconds") == 25)
        #expect(try configuration.positiveInteger("fetchkit.mystore.unset") == nil)
        #expect(throws: FetchKitError.invalidValue("fetchkit.mystore.zero must be positive (got 0)")) {
            try configuration.positiveInteger("fetchkit.mystore.zero")
        }
        #expect(configuration.secret("fetchkit.mystore.mirrorURL") == "mystore://app:hunter3@mirror/app")
        // Built in code: no reader, every backend key at its default.
        let inCode = StoreConfiguration(url: "sqlite::memory:")
        let unset = try inCode.positiveInteger("fetchkit.mystore.pollMilliseconds")
        #expect(inCode.reader == nil && unset == nil)
    }

    @Test func aJSONFileSitsUnderTheEnvironment() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-config-\(UUID()).json")
        try Data(
            #"{"fetchkit": {"store": {"url": "sqlite:///var/app.sqlite", "readers": 2}, "log": {"level": "info"}}}"#
                .utf8
        )
        .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try StoreConfiguration(
            reader: try await StoreConfiguration.reader(environment: [:], jsonFile: file.path))
        #expect(
            fromFile.url == "sqlite:///var/app.sqlite" && fromFile.readerCount == 2 && fromFile.logger.logLevel == .info
        )
        let overridden = try StoreConfiguration(
            reader: try await StoreConfiguration.reader(
                environment: ["FETCHKIT_STORE_URL": "sqlite::memory:"], jsonFile: file.path))
        #expect(overridden.url == "sqlite::memory:" && overridden.readerCount == 2)
    }

    @Test func badValuesSayWhichKey() async throws {
        await #expect(
            throws: FetchKitError.invalidValue("no store URL: set fetchkit.store.url (environment FETCHKIT_STORE_URL)")
        ) {
            try StoreConfiguration(reader: try await StoreConfiguration.reader(environment: [:]))
        }
        await #expect(throws: FetchKitError.invalidValue("fetchkit.store.readers must be positive (got 0)")) {
            try StoreConfiguration(
                reader: try await StoreConfiguration.reader(
                    environment: ["FETCHKIT_STORE_URL": "sqlite::memory:", "FETCHKIT_STORE_READERS": "0"]))
        }
        await #expect(throws: FetchKitError.self) {
            try StoreConfiguration(
                reader: try await StoreConfiguration.reader(
                    environment: ["FETCHKIT_STORE_URL": "sqlite::memory:", "FETCHKIT_LOG_LEVEL": "loud"]))
        }
    }

    @Test(
        "passwords are redacted",
        arguments: [
            ("postgres://app:hunter2@db/app", "postgres://app:***@db/app"),
            (
                "postgresql://app:hunter2@db:5432/app?sslmode=require",
                "postgresql://app:***@db:5432/app?sslmode=require"
            ),
            (
                "postgres://db/app?user=app&password=hunter2&sslmode=disable",
                "postgres://db/app?user=app&password=***&sslmode=disable"
            ),
            ("postgres://app@db/app", "postgres://app@db/app"),
            ("sqlite:///var/app.sqlite", "sqlite:///var/app.sqlite")
        ])
    func redaction(url: String, redacted: String) {
        #expect(StoreConfiguration(url: url).redactedURL == redacted)
    }

    @Test func unknownSchemesAndMissingSchemesNeverEchoThePassword() async throws {
        let registry = StoreRegistry([])
        for url in ["mysql://root:hunter2@db/app", "root:hunter2@db/app", "://x:hunter2@db"] {
            do {
                _ = try await registry.open(StoreConfiguration(url: url), schema: try Schema([]))
                Issue.record("\(url) opened")
            } catch let error as FetchKitError {
                guard error.code == .invalidURL else {
                    Issue.record("\(error)")
                    continue
                }
                let message = error.message
                #expect(!message.contains("hunter2"), "\(message)")
            }
        }
    }
}
