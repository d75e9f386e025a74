import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Testing

/// FetchKit's store conformance suite (FetchKitTesting) on SQLite: an in-memory store per check.
@Suite("Conformance: SQLite")
struct SQLiteConformanceTests {
    static let conformance = StoreConformance(capabilities: .init(diacriticInsensitive: true)) {
        try await SQLiteStore.inMemory(schema: Fixtures.schema)
    }

    @Test(arguments: StoreConformance.Check.all)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await Self.conformance.run(check)
    }
}
