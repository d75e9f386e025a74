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

    /// At most 16 checks at once: each holds a store's four connections, and the server has 200.
    static let gate = AsyncGate(limit: 16)

    @Test(.timeLimit(.minutes(10)), arguments: StoreConformance.Check.all)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await Self.gate.run { try await Self.conformance.run(check) }
    }
}
