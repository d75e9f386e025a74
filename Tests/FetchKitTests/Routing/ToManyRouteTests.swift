@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKit

/// A route whose predicate reads across a to-many relationship: its plan keeps the conjuncts it can evaluate in
/// memory as a filter, and the router hands a child row's change only to the routes of the parents it pointed at
/// (``TableChange/references``) — or, when those are unknown, to every route reading the relationship.
@Suite("To-many routes")
struct ToManyRouteTests {
    static let dialect = SQLDialect(name: "Q", placeholderStyle: .questionMark)

    static func plan(_ format: String, limit: Int? = nil) throws -> RoutePlan {
        var request = FetchRequest(
            entity: "Category", predicate: try FetchPredicate(format: format), sortDescriptors: [.ascending("name")])
        request.fetchLimit = limit
        return try RoutePlan(request: request.erased, schema: Fixtures.schema, dialect: dialect, incremental: true)
    }

    @Test func thePlanFiltersInMemoryAndLetsTheDatabaseDecide() throws {
        let plan = try Self.plan("id == 2 AND ANY todos.priority > 3")
        let memory = try #require(plan.memory)
        #expect(!memory.decides && memory.childForeignKeys == ["todo": "categoryID"] && memory.unlocalizable.isEmpty)
        #expect(memory.index?.column == "id" && plan.isKeyBounded && !plan.isLocal)
        // A window may refill with any row: not key bounded.
        #expect(try Self.plan("ANY todos.priority > 3", limit: 2).isKeyBounded == false)
        // A predicate decided in memory reads no child table.
        #expect(try Self.plan("name == 'Work'").memory?.decides == true)
    }

    @Test func aChildChangeReachesOnlyTheRoutesOfTheParentsItPointedAt() throws {
        var state = ChangeRouter.State(routedThrough: 0)
        for (id, format) in [(0, "id == 1 AND ANY todos.priority > 3"), (1, "id == 2 AND todos.@count > 1")] {
            state.install(try Self.plan(format), id: id)
        }
        let moved = StoreChange(
            transactionID: 1,
            tables: ["todo": TableChange(updated: [.integer(5)], references: ["categoryID": [.integer(2)]])])
        let (direct, reads, unnamed) = state.dispatchPlan(for: moved, schema: Fixtures.schema)
        #expect(direct.isEmpty && unnamed.isEmpty)
        let referenced = try #require(reads["category"]?.referenced)
        #expect(referenced.count == 1 && referenced[0].routes == [0, 1] && referenced[0].keys == [.integer(2)])
        // Unknown references: every route reading the relationship, none of them able to name its keys.
        let unknown = StoreChange(transactionID: 2, tables: ["todo": TableChange(updated: [.integer(5)])])
        let fallback = state.dispatchPlan(for: unknown, schema: Fixtures.schema)
        #expect(fallback.direct == [0, 1] && fallback.unnamed == [0, 1] && fallback.reads["category"] == nil)
        // A todo in no category references nothing: no route, nothing to read.
        let none = StoreChange(
            transactionID: 3, tables: ["todo": TableChange(updated: [.integer(8)], references: ["categoryID": []])])
        let quiet = state.dispatchPlan(for: none, schema: Fixtures.schema)
        #expect(quiet.direct.isEmpty && quiet.reads.isEmpty)
    }
}
