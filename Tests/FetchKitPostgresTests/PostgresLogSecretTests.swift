import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Logging
import Synchronization
import Testing

/// A store's password, and its client key's passphrase (`sslpassword`), never reach a log line, at any level,
/// nor the store's description: opening, writing, live results, a refused connection, closing.
@Suite("PostgreSQL logs keep passwords out", .requiresPostgreSQL)
struct PostgresLogSecretTests {
    @Test("every log line at trace level while a store opens, writes, follows and closes, or fails to connect")
    func noLogLineHoldsThePassword() async throws {
        let log = LogCapture()
        let logger = log.logger
        let secret = "S3cret#W0rd/p?w@x"
        let encoded = secret.addingPercentEncodingForUserInfo()
        let base = try PostgresServer.urlText(searchPath: PostgresServer.uniqueName("fkt"))
        // The server's URL with a password added to its user info (the test server trusts local connections).
        let withPassword = base.replacingFirst("://postgres@", with: "://postgres:\(encoded)@")
        #expect(withPassword != base, "the test URL has no postgres@ user info: \(base)")
        let namespace = try #require(
            base.split(separator: "%3D").last?.split(separator: ",").first.map(String.init))
        try await PostgresServer.administer("CREATE SCHEMA \(namespace)")
        // The client key's passphrase, in mixed case and repeated: libpq ignores it without a client key.
        let passphrase = "Pa55phrase-0f-the-key"
        let url = withPassword + "&sslpassword=\(passphrase)"
        let store = try await PostgresStore.open(
            url: url, schema: Fixtures.schema, options: .init(readerCount: 2, logger: logger))
        #expect(!"\(store)".contains("W0rd") && !"\(store)".contains(passphrase), "\(store)")
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let controller = ResultsController(
            store: store, request: FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]),
            logger: logger)
        try await controller.performFetch()
        try await store.write { tx in _ = try tx.update("Todo", key: 1, set: ["title": "logged"]) }
        await controller.sync()
        await store.close()
        // A refused connection logs and throws.
        do {
            _ = try await PostgresStore.open(
                url: "postgresql://postgres:\(encoded)@127.0.0.1:1/none?connect_timeout=2&SSLPassword=\(passphrase)",
                schema: Fixtures.schema,
                options: .init(readerCount: 1, logger: logger))
            Issue.record("a store opened on port 1")
        } catch {
            #expect(!"\(error)".contains("W0rd") && !"\(error)".contains(passphrase), "\(error)")
        }
        let lines = log.lines.map(\.description)
        #expect(!lines.isEmpty, "nothing was logged at trace level")
        for line in lines where line.contains("W0rd") || line.contains(encoded) || line.contains(passphrase) {
            Issue.record("a log line holds the password: \(line)")
        }
    }
}

extension String {
    /// This text with everything but unreserved characters percent-encoded.
    fileprivate func addingPercentEncodingForUserInfo() -> String {
        var result = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.properties.isAlphabetic && byte < 0x80 || (0x30...0x39).contains(byte)
                || "-._~".utf8.contains(byte)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
