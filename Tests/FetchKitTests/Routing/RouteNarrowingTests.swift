@_spi(Backend) import FetchKit
import Testing

@testable import FetchKit

/// A change that names many rows (a burst folded at the router) reaches each key-bounded route with only the
/// keys that can change its results: those it holds, and those whose rows it matches.
@Suite("Route narrowing")
struct RouteNarrowingTests {
    static let layout = RowLayout(names: ["id", "grp", "v"])

    func plan(_ predicate: FetchPredicate, limit: Int? = nil) throws -> RoutePlan {
        var request = FetchRequest(entity: "Hot", predicate: predicate, sortDescriptors: [.ascending("v")])
        request.fetchLimit = limit
        return try HotTable.plan(request)
    }

    static func row(_ id: Int64, grp: Int64, v: Int64) -> Row {
        Row(layout: layout, values: [.integer(id), .integer(grp), .integer(v)])
    }

    @Test func eachKeyBoundedRouteIsHandedOnlyTheKeysThatConcernIt() throws {
        var state = ChangeRouter.State(routedThrough: 0)
        let indexed = try plan(.key("grp") == Int64(1))  // route 0
        let unindexed = try plan(.key("v") > Int64(50))  // route 1
        let windowed = try plan(.key("grp") == Int64(2), limit: 2)  // route 2: not key bounded
        #expect(indexed.isKeyBounded && unindexed.isKeyBounded && !windowed.isKeyBounded)
        state.install(indexed, id: 0)
        state.install(unindexed, id: 1)
        state.install(windowed, id: 2)
        // Route 0 holds row 1 (which now moved to group 3), route 2 holds row 5.
        state.addHolder(0, keys: [.integer(1)], table: "hot", plan: indexed)
        state.addHolder(2, keys: [.integer(5)], table: "hot", plan: windowed)
        let rows = [
            Self.row(1, grp: 3, v: 0), Self.row(2, grp: 1, v: 10), Self.row(3, grp: 1, v: 60),
            Self.row(4, grp: 2, v: 70), Self.row(5, grp: 2, v: 0), Self.row(6, grp: 4, v: 0)
        ]
        let keys = Set((1...7).map { Value.integer(Int64($0)) })  // 7: deleted
        let reread = RereadRows(
            keys: keys, rows: Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] ?? .null, $0) }),
            relatedColumns: [], followed: [:])
        var ids: Set<Int> = []
        var concerns: [Int: Set<Value>] = [:]
        try #require(state.entities["hot"]).candidates(for: reread, into: &ids, concerns: &concerns)
        #expect(ids == [0, 1, 2])
        // Route 0: row 1 it holds (it leaves), rows 2 and 3 it matches.
        #expect(concerns[0] == [.integer(1), .integer(2), .integer(3)])
        // Route 1: the rows with v > 50 (found through its range, v in [50, ∞)).
        #expect(unindexed.memory?.range?.column == "v")
        #expect(concerns[1] == [.integer(3), .integer(4)])
        // A window (local, not key bounded): the row it holds and the row it matches; a refill reads the
        // database, not the change.
        #expect(windowed.isLocal)
        #expect(concerns[2] == [.integer(4), .integer(5)])
    }

    @Test func aNarrowedChangeKeepsOnlyItsKeysAndTable() {
        let change = StoreChange(
            transactionID: 9,
            tables: [
                "hot": TableChange(
                    inserted: [.integer(1)], updated: [.integer(2), .integer(3)], deleted: [.integer(4)]),
                "other": TableChange(updated: [.integer(1)])
            ])
        let rows = [Self.row(1, grp: 1, v: 0), Self.row(2, grp: 1, v: 0), Self.row(3, grp: 2, v: 0)]
        let reread = RereadRows(
            keys: [.integer(1), .integer(2), .integer(3), .integer(4)],
            rows: Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] ?? .null, $0) }),
            relatedColumns: [], followed: [:])
        let routed = RoutedChange(change: change, rows: ["hot": reread])
        let narrowed = routed.narrowed(to: [.integer(1), .integer(2), .integer(4)], in: "hot")
        #expect(narrowed.change.transactionID == 9)
        #expect(Set(narrowed.change.tables.keys) == ["hot"])
        #expect(
            narrowed.change.tables["hot"]
                == TableChange(inserted: [.integer(1)], updated: [.integer(2)], deleted: [.integer(4)]))
        #expect(narrowed.rows["hot"]?.keys == [.integer(1), .integer(2), .integer(4)])
        #expect(Set(narrowed.rows["hot"]?.rows.keys ?? [:].keys) == [.integer(1), .integer(2)])
        #expect(narrowed.earliestRead == routed.earliestRead)
    }
}
