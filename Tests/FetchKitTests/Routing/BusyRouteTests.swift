import Testing

@testable import FetchKit

/// A busy route whose membership is decided on its entity's own rows receives, while busy, only the changes
/// naming a row it holds or was handed — not every change.
@Suite("Busy routes")
struct BusyRouteTests {
    func plan(_ request: FetchRequest<Row>) throws -> RoutePlan { try HotTable.plan(request) }

    @Test func aKeyBoundedRouteReceivesOnlyTheKeysItWasHanded() throws {
        let request = FetchRequest(
            entity: "Hot", predicate: .key("grp") == Int64(1), sortDescriptors: [.ascending("v")])
        var entry = ChangeRouter.Entry(plan: try plan(request))
        #expect(entry.plan?.isKeyBounded == true)
        entry.pending = 1
        entry.handed([.integer(1)])
        #expect(entry.needsWhileBusy([.integer(1), .integer(5)]))
        #expect(!entry.needsWhileBusy([.integer(2)]))
        // Unknown keys (a whole table, a resync): every change, until the route is idle.
        #expect(entry.needsWhileBusy(nil))
        entry.handed(nil)
        #expect(entry.needsWhileBusy([.integer(2)]))
        // Refetching: every change.
        var refreshing = ChangeRouter.Entry(plan: try plan(request))
        refreshing.refreshing = 1
        #expect(refreshing.needsWhileBusy([.integer(2)]))
    }

    @Test func aWindowedRouteReceivesEveryChangeWhileBusy() throws {
        var request = FetchRequest(
            entity: "Hot", predicate: .key("grp") == Int64(1), sortDescriptors: [.ascending("v")])
        request.fetchLimit = 3
        var entry = ChangeRouter.Entry(plan: try plan(request))
        #expect(entry.plan?.isKeyBounded == false)
        entry.pending = 1
        #expect(entry.needsWhileBusy([.integer(2)]))
    }
}
