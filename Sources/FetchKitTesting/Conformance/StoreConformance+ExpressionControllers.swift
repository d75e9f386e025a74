import FetchKit
import Foundation

extension StoreConformance {
    /// Live controllers whose predicates read across the to-many relationship (`SUBQUERY`, `@sum`) or compute
    /// (`priority * 2`): each change of a related todo moves the categories it concerns in or out, every
    /// batch checked against the oracle.
    func checkExpressionControllers(on store: any PersistentStore) async throws {
        let urgent = try await Harness(
            store,
            FetchRequest(
                entity: "Category",
                predicate: try FetchPredicate(
                    format: "SUBQUERY(todos, $t, $t.done == NO AND $t.priority > 2).@count > 0"),
                sortDescriptors: [.ascending("name")]))
        let busy = try await Harness(
            store,
            FetchRequest(
                entity: "Category", predicate: try FetchPredicate(format: "todos.@sum.priority >= %d", 5),
                sortDescriptors: [.ascending("name")]))
        try expect(urgent.ids() == [2, 1], "urgent at first: \(urgent.ids())")
        try expect(busy.ids() == [2, 1], "busy at first: \(busy.ids())")

        // Errands (3) gets an urgent open todo: it enters both.
        _ = try await store.write { tx in try tx.update("Todo", key: 3, set: ["priority": 5]) }
        try await Self.settle([urgent, busy])
        try expect(urgent.ids() == [3, 2, 1] && busy.ids() == [3, 2, 1], "after 3: \(urgent.ids()) \(busy.ids())")
        // Home's (2) only urgent open todo is done: Home leaves the first, stays in the second.
        _ = try await store.write { tx in try tx.update("Todo", key: 5, set: ["done": true]) }
        try await Self.settle([urgent, busy])
        try expect(urgent.ids() == [3, 1] && busy.ids() == [3, 2, 1], "after 5 done: \(urgent.ids()) \(busy.ids())")
        // A todo moves from Work (1) to Home: Home is urgent again, Work's sum drops from 8 to 4.
        _ = try await store.write { tx in try tx.update("Todo", key: 7, set: ["categoryID": 2]) }
        try await Self.settle([urgent, busy])
        try expect(urgent.ids() == [3, 2, 1] && busy.ids() == [3, 2], "after the move: \(urgent.ids()) \(busy.ids())")
        // Deleting todos: Errands leaves both.
        _ = try await store.write { tx in try tx.delete("Todo", key: 3) }
        try await Self.settle([urgent, busy])
        try expect(urgent.ids() == [2, 1] && busy.ids() == [2], "after the delete: \(urgent.ids()) \(busy.ids())")

        let computed = try await Harness(
            store,
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "priority * 2 > ordering + 4"),
                sortDescriptors: [.ascending("id")]))
        // Priorities and orderings now: 1 (3, 1.0), 2 (2, 2.0), 5 (5, -1.0), 6 (0, 10.0), 7 (4, 4.0),
        // 9 (3, 0.5), 10 (-1, 7.25); 4 and 8 have no ordering.
        try expect(computed.ids() == [1, 5, 9], "computed at first: \(computed.ids())")
        try await computed.write { tx in try tx.update("Todo", key: 2, set: ["priority": 4]) }
        try await computed.write { tx in try tx.update("Todo", key: 9, set: ["ordering": 3.0]) }
        try expect(computed.ids() == [1, 2, 5], "computed after two updates: \(computed.ids())")
    }

    /// Waits for each harness's controller and checks it against the oracle.
    private static func settle(_ harnesses: [Harness]) async throws {
        for harness in harnesses {
            await harness.controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(harness.controller, in: harness.store)
            try harness.recorder.checkCallbackOrder()
            for update in harness.recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        }
    }
}
