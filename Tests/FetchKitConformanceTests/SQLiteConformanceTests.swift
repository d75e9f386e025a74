import FetchKit
import FetchKitMacroFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Testing

/// FetchKit's store conformance suite (FetchKitTesting) on SQLite: an in-memory store per check (one
/// connection: reads wait for writes), and the isolation checks again on a database file with readers.
@Suite("Conformance: SQLite")
struct SQLiteConformanceTests {
    static let conformance = StoreConformance(capabilities: .init(concurrentReads: false, namesForeignKeys: false)) {
        schema in
        try await SQLiteStore.inMemory(schema: schema)
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

    @Test(.timeLimit(.minutes(20)), arguments: StoreConformance.Check.isolation + StoreConformance.Check.controllers)
    func conformsOnFile(_ check: StoreConformance.Check) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let conformance = StoreConformance(capabilities: .init(namesForeignKeys: false)) { schema in
            try await SQLiteStore.open(
                path: directory.path("conformance.sqlite"), schema: schema,
                options: .init(readerCount: 2, busyTimeout: .seconds(2)))
        }
        try await conformance.run(check)
    }
}
