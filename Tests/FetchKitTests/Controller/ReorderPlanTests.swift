import Testing

@testable import FetchKit

/// The fewest order-key writes that put a dragged row at its destination.
@Suite("Reorder plan")
struct ReorderPlanTests {
    private func rows(_ orders: [Value]) -> [(key: Value, order: Value)] {
        orders.enumerated().map { (.integer(Int64($0.offset + 1)), $0.element) }
    }

    @Test func fractionalKeysWriteOnlyTheDraggedRow() {
        let list = rows([.double(1), .double(2), .double(4)])
        #expect(
            ReorderPlan.plan(inserting: 1, into: list, fractional: true)
                == ReorderPlan(dragged: .double(1.5), shifted: []))
        #expect(
            ReorderPlan.plan(inserting: 0, into: list, fractional: true)
                == ReorderPlan(dragged: .double(0), shifted: []))
        #expect(
            ReorderPlan.plan(inserting: 3, into: list, fractional: true)
                == ReorderPlan(dragged: .double(5), shifted: []))
        #expect(
            ReorderPlan.plan(inserting: 0, into: [], fractional: true) == ReorderPlan(dragged: .double(0), shifted: []))
    }

    @Test func fractionalKeysWithoutRoomShift() {
        let tight = rows([.double(1), .double(1.0000000000000002)])
        let plan = ReorderPlan.plan(inserting: 1, into: tight, fractional: true)
        #expect(plan == ReorderPlan(dragged: .double(2), shifted: [(.integer(2), .double(3))]))
    }

    @Test func integerKeysShiftUntilAGapAbsorbsIt() {
        let list = rows([.integer(1), .integer(2), .integer(3), .integer(7), .integer(8)])
        let plan = ReorderPlan.plan(inserting: 1, into: list, fractional: false)
        #expect(
            plan == ReorderPlan(dragged: .integer(2), shifted: [(.integer(2), .integer(3)), (.integer(3), .integer(4))])
        )
        #expect(
            ReorderPlan.plan(inserting: 0, into: list, fractional: false)
                == ReorderPlan(dragged: .integer(0), shifted: []))
        #expect(
            ReorderPlan.plan(inserting: 5, into: list, fractional: false)
                == ReorderPlan(dragged: .integer(9), shifted: []))
    }

    @Test func tiesAreSeparated() {
        let list = rows([.integer(1), .integer(1), .integer(1)])
        let plan = ReorderPlan.plan(inserting: 1, into: list, fractional: false)
        #expect(
            plan == ReorderPlan(dragged: .integer(2), shifted: [(.integer(2), .integer(3)), (.integer(3), .integer(4))])
        )
    }

    @Test func nullsRenumberTheDestination() {
        let list = rows([.null, .double(0), .double(5)])
        let plan = ReorderPlan.plan(inserting: 1, into: list, fractional: true)
        #expect(
            plan
                == ReorderPlan(
                    dragged: .double(1),
                    shifted: [(.integer(1), .double(0)), (.integer(2), .double(2)), (.integer(3), .double(3))]))
    }
}
