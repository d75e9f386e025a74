import FetchKit
@testable import FetchKitPostgres
import FetchKitTesting
import Testing

@Suite("PostgreSQL store (smoke)")
struct PostgresStoreSmokeTests {
    @Test func opensWritesAndFetches() async throws {
        let schemaName = PostgresServer.uniqueName("smoke")
        let pool = try await PostgresServer.pool()
        try await pool.run { _ = try $0.run("CREATE SCHEMA \(schemaName)") }
        let base = try PostgresServer.url()
        let url = try PostgresURL(base.redacted.replacingOccurrences(of: "***", with: "") + "?options=-c%20search_path%3D\(schemaName)")
        let store = try await PostgresStore.open(url: url, schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let rows = try await store.fetch(FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "category.name == 'Work'"), sortDescriptors: [.ascending("id")]))
        #expect(rows.map { $0["id", as: Int64.self] } == [1, 2, 7, 10])
        await store.close()
        await pool.shutDown()
    }
}
