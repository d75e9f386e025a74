import FetchKit
import FetchKitFixtures
import Foundation

/// The oracle check through records: random transactions against live controllers of a record type's typed
/// requests (`#Predicate`s, key-path sorts and sections); after every commit each controller equals a fresh
/// fetch of its records and every batch passes ``ListSimulator``.
///
/// Reproduce a failure with the seed it reports: `FETCHKIT_SEED=<seed>` (and `FETCHKIT_TRANSACTIONS=<n>`).
extension StoreConformance {
    /// Checks each controller against a fresh fetch and each batch its recorder heard against the simulator,
    /// then forgets the batches.
    ///
    /// - Returns: How many batches were checked.
    static func checkRecordControllers<R: EntityRecord & Equatable>(
        _ controllers: [(controller: ResultsController<R>, recorder: ResultsRecorder<R>)],
        in store: any PersistentStore, context: String
    ) async throws -> Int {
        var batches = 0
        for (index, (controller, recorder)) in controllers.enumerated() {
            await controller.sync()
            do {
                try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
                try recorder.checkCallbackOrder()
                for update in recorder.updates { try ResultsOracle.check(update) }
                batches += recorder.updates.count
                recorder.reset()
            } catch {
                throw ConformanceFailure(
                    "\(context), \(R.self) controller \(index) (\(controller.request.predicate)): \(error)")
            }
        }
        return batches
    }

    func checkLiveRecords<Todo: ConformanceTodo>(_: Todo.Type, on store: any PersistentStore) async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x5EED_F00D
        let transactions =
            ProcessInfo.processInfo.environment["FETCHKIT_TRANSACTIONS"].flatMap(Int.init) ?? min(500, liveTransactions)
        var random = SeededRandom(seed: seed)
        let todos = try await Self.fetchedWithRecorders(
            try Todo.liveRequests().map { ResultsController(store: store, request: $0) })
        let categories = try await Self.fetchedWithRecorders(
            try Todo.Category.liveRequests().map { ResultsController(store: store, request: $0) })
        defer {
            for (controller, _) in todos { controller.delegate = nil }
            for (controller, _) in categories { controller.delegate = nil }
        }
        var batches = 0
        for number in 1...transactions {
            let operations = try await Self.writeRandomTransaction(to: store, using: &random)
            let context = "seed \(seed), transaction \(number), operations \(operations)"
            batches += try await Self.checkRecordControllers(todos, in: store, context: context)
            batches += try await Self.checkRecordControllers(categories, in: store, context: context)
        }
        try ConformanceFailure.require(
            batches > transactions, "the record controllers emitted few batches (\(batches))")
        let incremental =
            todos.map(\.controller.statistics.incrementalUpdates).reduce(0, +)
            + categories.map(\.controller.statistics.incrementalUpdates).reduce(0, +)
        try ConformanceFailure.require(
            incremental > transactions, "the incremental path was rarely taken (\(incremental) updates)")
    }
}
