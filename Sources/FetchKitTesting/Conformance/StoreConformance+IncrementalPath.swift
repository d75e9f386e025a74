@_spi(Benchmarks) import FetchKit
import FetchKitFixtures
import Foundation

extension StoreConformance {
    /// Pairs of controllers over ``liveRequests``, one forced onto the refetch path, under random writes:
    /// after every commit both equal a fresh fetch and each other, and emit equivalent valid batches.
    ///
    /// Reproduce a failure with `FETCHKIT_SEED=<seed>`.
    func checkIncrementalEqualsRefetch(on store: any PersistentStore) async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x1_0C4E
        var random = SeededRandom(seed: seed)
        let dialect = store.dialect
        var pairs: [(incremental: Harness, refetch: Harness)] = []
        for request in Self.liveRequests {
            let incremental = try await Harness(store, request)
            let refetch = try await Harness(store, request)
            refetch.controller.usesIncrementalPath = false
            pairs.append((incremental, refetch))
        }
        for number in 1...400 {
            let operations = (0..<random.int(1...3)).map { _ in RandomOperation.make(&random) }
            do {
                try await store.write { tx in for operation in operations { try operation.apply(tx, dialect: dialect) }
                }
            } catch is FetchKitError {}
            for (index, pair) in pairs.enumerated() {
                let context = "seed \(seed), transaction \(number), request \(index), operations \(operations)"
                try await compare(pair.incremental, pair.refetch, context)
            }
        }
        let incremental = pairs.map(\.incremental.paths.incremental).reduce(0, +)
        let forced = pairs.map(\.refetch.paths.incremental).reduce(0, +)
        try expect(incremental > 400, "the incremental path was taken only \(incremental) times")
        try expect(forced == 0, "a controller forced to refetch took the incremental path \(forced) times")
    }

    /// Checks one pair after a transaction: the same content, equal to a fresh fetch; batches that pass the
    /// oracle and agree on what came and went. Which of two rows that swap is the move may differ (the
    /// incremental path moves the changed one), so only the number of moves is compared.
    private func compare(_ incremental: Harness, _ refetch: Harness, _ context: String) async throws {
        await incremental.controller.sync()
        await refetch.controller.sync()
        try await ResultsOracle.checkMatchesFreshFetch(incremental.controller, in: incremental.store)
        try expect(
            incremental.controller.fetchedObjects == refetch.controller.fetchedObjects, "contents differ: \(context)")
        let batches = (incremental.recorder.updates, refetch.recorder.updates)
        try expect(batches.0.count == batches.1.count, "\(batches.0.count) vs \(batches.1.count) batches: \(context)")
        for (left, right) in zip(batches.0.map(\.changeset), batches.1.map(\.changeset)) {
            try expect(
                left?.sectionDeletes == right?.sectionDeletes && left?.sectionInserts == right?.sectionInserts
                    && left?.rowDeletes == right?.rowDeletes && left?.rowInserts == right?.rowInserts
                    && left?.rowMoves.count == right?.rowMoves.count,
                "the batches differ: \(String(describing: left)) vs \(String(describing: right)): \(context)")
        }
        for update in batches.0 + batches.1 { try ResultsOracle.check(update, primaryKey: "id") }
        try incremental.recorder.checkCallbackOrder()
        try refetch.recorder.checkCallbackOrder()
        incremental.recorder.reset()
        refetch.recorder.reset()
    }
}
