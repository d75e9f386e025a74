import FetchKit
import Foundation

extension StoreConformance {
    /// A caller whose task is cancelled before its command runs gets `CancellationError`, and the controller
    /// does nothing: the request, the results and the delegate's view stay as they were.
    func checkCancelledCallers(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        let controller = harness.controller
        // Queued behind a held queue, then cancelled: skipped when its turn comes.
        let hold = await controller.holdProcessing()
        let switching = Task {
            try await controller.setRequest(
                FetchRequest(
                    entity: "Todo", predicate: try FetchPredicate(format: "done == YES"),
                    sortDescriptors: [.ascending("id")]))
        }
        // Gives the call time to queue (if it has not, it fails the same way, before queueing).
        try await Task.sleep(for: .milliseconds(50))
        switching.cancel()
        hold.release()
        do {
            try await switching.value
            throw ConformanceFailure("a cancelled setRequest switched the request")
        } catch is CancellationError {}
        // Already cancelled when called: nothing is queued.
        for call in [
            { try await controller.performFetch() },
            { try await controller.moveObject(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 1)) }
        ] as [@Sendable () async throws -> Void] {
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await call()
            }
            do {
                try await cancelled.value
                throw ConformanceFailure("a call from a cancelled task ran")
            } catch is CancellationError {}
        }
        await controller.sync()
        try expect(harness.ids() == Array(1...10), "the results changed: \(harness.ids())")
        try expect(controller.request.predicate == FetchPredicate.true, "the request changed: \(controller.request)")
        try expect(harness.recorder.updates.isEmpty, "a batch was delivered: \(harness.recorder.updates.count)")
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        // The controller still works.
        try await controller.setRequest(
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "done == YES"),
                sortDescriptors: [.ascending("id")]))
        try expect(harness.ids() == [2, 6, 8, 10], "after a later switch: \(harness.ids())")
    }
}
