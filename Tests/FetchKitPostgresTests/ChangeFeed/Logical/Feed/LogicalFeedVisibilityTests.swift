import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// The logical feed publishes each transaction without a query; a fetch through the store started on its
/// receipt still sees it (the read waits for the server to show it), and reads confirm what they saw.
@Suite("PostgreSQL logical feed visibility", .requiresPostgreSQL)
struct LogicalFeedVisibilityTests {
    @Test func aFetchStartedOnAChangesReceiptSeesIt() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: LogicalFeedTests.logicalOptions())
        let gate = try #require(store.logicalFeed?.visibility)
        let other = try await PostgresServer.pool(name: "fkt-visibility", searchPath: namespace)
        var changes = store.changes().makeAsyncIterator()
        for id in 1...200 {
            try await other.run { connection in
                _ = try connection.run("INSERT INTO category (id, name, position) VALUES (\(id), 'c\(id)', \(id))")
            }
            var received: StoreChange?
            while received == nil, let change = await changes.next() {
                if change.delivery == nil { received = change }
            }
            #expect(received?.tables["category"]?.inserted == [.integer(Int64(id))])
            let rows = try await store.fetch(
                FetchRequest(entity: "Category", predicate: .key("id") == .integer(Int64(id))))
            #expect(rows.count == 1, "transaction \(id) was published before a fetch could see it")
        }
        #expect(gate.unconfirmedCount == 0, "the last fetch confirmed everything published before it")
        await other.shutDown()
        await store.close()
    }
}
