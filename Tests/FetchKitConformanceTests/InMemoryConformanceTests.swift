import FetchKit
import FetchKitInMemory
import FetchKitMacroFixtures
import FetchKitTesting
import Testing

/// FetchKit's store conformance suite (FetchKitTesting) on ``InMemoryStore``: a new store per check, every
/// check SQLite and PostgreSQL run. The checks that change the database behind the store's back with raw SQL
/// (``StoreConformance/Check/requiresSQL``) check instead that the store refuses raw SQL, as its dialect says
/// it runs none.
@Suite("Conformance: in-memory store")
struct InMemoryConformanceTests {
    static let conformance = StoreConformance(capabilities: .init()) { schema in
        InMemoryStore(schema: schema)
    }

    @Test(.timeLimit(.minutes(20)), arguments: StoreConformance.Check.all)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await Self.conformance.run(check)
    }

    /// The record checks again, through the fixture records declared with `@Entity`.
    @Test(.timeLimit(.minutes(20)), arguments: StoreConformance.Check.records(MacroTodo.self))
    func conformsThroughEntityRecords(_ check: StoreConformance.Check) async throws {
        try await Self.conformance.run(check)
    }
}
