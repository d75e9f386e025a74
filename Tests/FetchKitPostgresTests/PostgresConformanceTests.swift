import FetchKit
import FetchKitPostgres
import FetchKitTesting
import Testing

/// FetchKit's store conformance suite (FetchKitTesting) on PostgreSQL: a store in a schema of its own per
/// check, in the database `DATABASE_URL` names (with the `unaccent` extension, so `[d]` works).
@Suite("Conformance: PostgreSQL")
struct PostgresConformanceTests {
    static let conformance = StoreConformance(capabilities: .init(diacriticInsensitive: true)) { schema in
        try await PostgresServer.isolatedStore(schema: schema)
    }

    @Test(arguments: StoreConformance.Check.all)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await Self.conformance.run(check)
    }
}
