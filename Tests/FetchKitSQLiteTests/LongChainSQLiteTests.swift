import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Testing

/// Long `AND`/`OR` chains are one n-ary node in FetchKit and reach SQLite grouped, so that SQLite's limit of
/// 1,000 levels on an expression's tree (one level per operator of a flat chain) does not refuse them.
@Suite("Long AND/OR chains on SQLite")
struct LongChainSQLiteTests {
    @Test func fiveThousandTermChainsFetch() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        let inRange = try await store.count(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "priority BETWEEN {0, 4999}")))
        let all = try await store.count(FetchRequest(entity: "Todo"))
        #expect(inRange > 0)
        let terms = (0..<5_000).map { "priority == \($0)" }
        let anyPriority = try FetchPredicate(format: terms.joined(separator: " OR "))
        let matching = try await store.count(FetchRequest(entity: "Todo", predicate: anyPriority))
        #expect(matching == inRange)
        let notAny = try FetchPredicate(format: terms.map { "NOT " + $0 }.joined(separator: " AND "))
        let none = try await store.count(FetchRequest(entity: "Todo", predicate: notAny))
        #expect(none == all - inRange)
    }
}
