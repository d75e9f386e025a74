import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Testing

/// Two fetches of one request shape return rows with one layout between them: thousands of controllers of a
/// request hold one copy of its column names and their index, not one each.
@Suite("SQLite fetches share row layouts")
struct SQLiteLayoutSharingTests {
    @Test func twoFetchesOfOneShapeShareTheirLayout() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let request = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")])
        let first = try await store.fetch(request)
        let second = try await store.fetch(
            FetchRequest(entity: "Todo", predicate: .key("priority") >= Int64(2), sortDescriptors: [.ascending("id")]))
        let a = try #require(first.first)
        let b = try #require(second.first)
        #expect(a.layout === b.layout)
        #expect(a.names == b.names)
        await store.close()
    }
}
