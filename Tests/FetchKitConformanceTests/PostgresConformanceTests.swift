import FetchKit
import FetchKitMacroFixtures
import FetchKitPostgres
import FetchKitTesting
import Testing

/// FetchKit's store conformance suite (FetchKitTesting) on PostgreSQL: a store in a schema of its own per
/// check, in the database `DATABASE_URL` names (with the `unaccent` extension, so `[d]` works).
@Suite("Conformance: PostgreSQL", .requiresPostgreSQL)
struct PostgresConformanceTests {
    static let conformance = StoreConformance(capabilities: .init(diacriticInsensitive: true)) { schema in
        try await ConformanceServer.isolatedStore(schema: schema)
    }

    /// At most 16 checks at once: each holds a store's four connections, and the server has 200.
    static let gate = AsyncGate(limit: 16)

    // The limits only catch a hang: every check of the suite runs at once, so the longest one ("live results:
    // random transactions", about 8 minutes on a 2-core machine) waits for the others' share of the machine.

    @Test(.timeLimit(.minutes(20)), arguments: StoreConformance.Check.all)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await Self.gate.run { try await Self.conformance.run(check) }
    }

    /// The record checks again, through the fixture records declared with `@Entity`.
    @Test(.timeLimit(.minutes(20)), arguments: StoreConformance.Check.records(MacroTodo.self))
    func conformsThroughEntityRecords(_ check: StoreConformance.Check) async throws {
        try await Self.gate.run { try await Self.conformance.run(check) }
    }
}

/// The same suite with the store reading the write-ahead log (the logical feed): live results apply the rows the
/// log carries instead of re-reading them, and every check holds. The tables whose foreign keys a to-many
/// relationship follows log whole old rows (`REPLICA IDENTITY FULL`), so those relationships are localised too.
@Suite("Conformance: PostgreSQL logical feed", .requiresPostgreSQL)
struct PostgresLogicalConformanceTests {
    static let conformance = StoreConformance(capabilities: .init(diacriticInsensitive: true)) { schema in
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = .logical
        let namespace = ConformanceServer.uniqueName("fkc")
        let store = try await ConformanceServer.isolatedStore(schema: schema, namespace: namespace, options: options)
        for entity in schema.entities where !schema.referencedForeignKeys(of: entity).isEmpty {
            try await ConformanceServer.administer("ALTER TABLE \(namespace).\(entity.table) REPLICA IDENTITY FULL")
        }
        return store
    }

    @Test(.timeLimit(.minutes(20)), arguments: StoreConformance.Check.all)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await PostgresConformanceTests.gate.run { try await Self.conformance.run(check) }
    }
}
