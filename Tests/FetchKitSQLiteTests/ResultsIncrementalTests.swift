@_spi(Benchmarks) @testable import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// The incremental path: which changes take it, and that it gives exactly what the refetch path gives.
@Suite("ResultsController: incremental path")
struct ResultsIncrementalTests {
    typealias Harness = ResultsControllerTests.Harness

    /// (incremental updates, full refreshes) of a controller.
    static func paths(_ controller: ResultsController<Row>) -> (incremental: Int, full: Int) {
        controller.state.withLock { ($0.incrementalUpdates, $0.fullRefreshes) }
    }

    @Test func singleRowChangesTakeTheIncrementalPath() async throws {
        let harness = try await Harness(ResultsControllerTests.byCategory)
        try await harness.insertUpdateMoveDelete()
        let none = try await harness.write { tx in try tx.update("Task", key: 1, set: ["title": "Write report"]) }
        #expect(none == nil)
        let paths = Self.paths(harness.controller)
        #expect(paths.incremental == 5 && paths.full == 0, "\(paths)")
    }

    /// Seed 002 on the incremental path: the emptied section is deleted in the same batch.
    @Test func emptiedSectionIsDeletedIncrementally() async throws {
        let request = FetchRequest(
            entity: "Task", predicate: try FetchPredicate(format: "id IN {5, 1}"),
            sortDescriptors: [.ascending("category.name"), .ascending("ordering")], sectionNameKeyPath: "category.name")
        let harness = try await Harness(request)
        let batch = try #require(try await harness.write { tx in try tx.update("Task", key: 5, set: ["categoryID": 1]) })
        #expect(batch.sectionDeletes == [0])
        #expect(harness.controller.sections.map(\.name) == ["Work"])
        #expect(Self.paths(harness.controller) == (1, 0))
        // Every row of the results changes at once: the working copy is empty for a moment, and the rows go
        // back in without a refetch (this once threw and fell back to refetching).
        try await harness.write { tx in
            try tx.update("Task", key: 5, set: ["categoryID": 2])
            try tx.update("Task", key: 1, set: ["title": "Both changed"])
        }
        #expect(harness.controller.sections.count == 2)
        #expect(Self.paths(harness.controller) == (2, 0))
    }

    @Test func theDatabaseDecidesMembership() async throws {
        let request = FetchRequest(
            entity: "Task", predicate: try FetchPredicate(format: "done == NO AND title BEGINSWITH[c] 'w'"),
            sortDescriptors: [.ascending("title", caseInsensitive: true)])
        let harness = try await Harness(request)
        #expect(harness.ids(0) == [1, 7])
        let left = try #require(try await harness.write { tx in try tx.update("Task", key: 1, set: ["done": true]) })
        #expect(left.rowDeletes == [RowPath(section: 0, row: 0)])
        let joined = try #require(try await harness.write { tx in
            try tx.update("Task", key: 4, set: ["title": "walk"])
        })
        #expect(joined.rowInserts == [RowPath(section: 0, row: 0)])
        #expect(harness.ids(0) == [4, 7])
        #expect(Self.paths(harness.controller) == (2, 0))
    }

    /// Seed 000/002's shape: tasks sectioned by their category's name. A change to a category re-reads only the
    /// tasks pointing at it.
    @Test func relatedTableChangesAreLocalised() async throws {
        let harness = try await Harness(ResultsControllerTests.byCategory)
        let before = harness.controller.sections.map(\.name)
        // Renaming a category moves its whole section: its tasks are deleted from the old section and
        // inserted into the new one, without a refetch.
        let renamed = try #require(try await harness.write { tx in
            try tx.update("Category", key: 3, set: ["name": "Zeta"])
        })
        #expect(harness.controller.sections.map(\.name) != before)
        #expect(!renamed.sectionInserts.isEmpty && !renamed.sectionDeletes.isEmpty)
        #expect(Self.paths(harness.controller) == (1, 0))
        // Both tables in one transaction.
        try await harness.write { tx in
            try tx.update("Task", key: 1, set: ["title": "both"])
            try tx.update("Category", key: 1, set: ["name": "Job"])
        }
        #expect(Self.paths(harness.controller) == (2, 0))
        // A category no task points at: nothing to re-read, nothing emitted.
        let none = try await harness.write { tx in _ = try tx.insert(["id": 9, "name": "Empty", "position": 9], into: "Category") }
        #expect(none == nil)
        #expect(Self.paths(harness.controller) == (3, 0))
        // A deletion in a related table refetches (foreign-key actions may have changed rows it cannot name).
        try await harness.write { tx in try tx.delete("Category", key: 9) }
        #expect(Self.paths(harness.controller) == (3, 1))
    }

    @Test func otherChangesRefetch() async throws {
        let harness = try await Harness(ResultsControllerTests.byCategory)
        // A related table reached through a to-many relationship (Category's `tasks`) is not localised.
        let categories = try await Harness(FetchRequest(
            entity: "Category", predicate: try FetchPredicate(format: "ANY tasks.done == NO"),
            sortDescriptors: [.ascending("name")]))
        try await categories.write { tx in try tx.update("Task", key: 1, set: ["done": true]) }
        #expect(Self.paths(categories.controller) == (0, 1))
        // More keys than the incremental limit.
        let count = ResultsController<Row>.incrementalKeyLimit + 1
        try await harness.write { tx in
            for id in 100..<(100 + count) {
                try tx.insert(Fixtures.TaskRecord(id: Int64(id), title: "bulk \(id)", categoryID: 2))
            }
        }
        #expect(Self.paths(harness.controller) == (0, 1))
        #expect(harness.controller.fetchedObjects.count == 10 + count)

        // A request with an offset always refetches.
        let offset = try await Harness(FetchRequest(entity: "Task", sortDescriptors: [.descending("id")],
                                                    fetchLimit: 4, fetchOffset: 2))
        try await offset.write { tx in try tx.update("Task", key: 7, set: ["title": "x"]) }
        #expect(Self.paths(offset.controller) == (0, 1))
    }

    @Test func limitedWindowHoldsLive() async throws {
        let request = FetchRequest(entity: "Task", sortDescriptors: [.descending("priority")], fetchLimit: 3)
        let harness = try await Harness(request)
        #expect(harness.ids(0) == [5, 7, 1])
        // An insert at the top pushes the last row out: one insert, one delete, no refetch.
        let pushed = try #require(try await harness.write { tx in
            try tx.insert(Fixtures.TaskRecord(id: 20, title: "Top", priority: 9))
        })
        #expect(pushed.rowInserts.count == 1 && pushed.rowDeletes.count == 1)
        #expect(harness.ids(0) == [20, 5, 7])
        #expect(Self.paths(harness.controller) == (1, 0))
        // A row from outside the window moving into it, and a row inside moving within it.
        try await harness.write { tx in try tx.update("Task", key: 9, set: ["priority": 6]) }
        #expect(harness.ids(0) == [20, 9, 5])
        try await harness.write { tx in try tx.update("Task", key: 5, set: ["priority": 8]) }
        #expect(harness.ids(0) == [20, 5, 9])
        // A change outside the window that stays outside emits nothing.
        let none = try await harness.write { tx in try tx.update("Task", key: 10, set: ["priority": 0]) }
        #expect(none == nil)
        #expect(Self.paths(harness.controller) == (4, 0))
        // A row leaving a full window: a keyset query after the old last row refills it, one delete and
        // one insert, still without a refetch.
        let refilled = try #require(try await harness.write { tx in try tx.delete("Task", key: 20) })
        #expect(refilled.rowDeletes == [RowPath(section: 0, row: 0)])
        #expect(refilled.rowInserts == [RowPath(section: 0, row: 2)])
        #expect(harness.ids(0) == [5, 9, 7])
        try await harness.write { tx in try tx.update("Task", key: 5, set: ["priority": -5]) }
        #expect(harness.ids(0) == [9, 7, 1])
        #expect(Self.paths(harness.controller) == (6, 0))
    }

    @Test func windowBelowItsLimitStaysIncremental() async throws {
        let request = FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "priority >= 4"),
                                   sortDescriptors: [.ascending("title")], fetchLimit: 3)
        let harness = try await Harness(request)
        #expect(harness.ids(0) == [5, 7])
        try await harness.write { tx in try tx.update("Task", key: 1, set: ["priority": 4]) }
        #expect(harness.ids(0) == [5, 7, 1])
        try await harness.write { tx in try tx.insert(Fixtures.TaskRecord(id: 30, title: "A first", priority: 4)) }
        #expect(harness.ids(0) == [30, 5, 7])
        #expect(Self.paths(harness.controller) == (2, 0))
    }

    /// Pairs of controllers over the same requests, one forced onto the refetch path, under random writes:
    /// after every commit both equal a fresh fetch and each other, and emit equivalent valid batches.
    @Test func incrementalEqualsRefetchOnRandomWrites() async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x1_0C4E
        var random = SeededRandom(seed: seed)
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        var pairs: [(incremental: ResultsController<Row>, refetch: ResultsController<Row>,
                     recorders: (ResultsRecorder<Row>, ResultsRecorder<Row>))] = []
        for request in StoreConformance.liveRequests {
            let incremental = ResultsController(store: store, request: request)
            let refetch = ResultsController(store: store, request: request)
            refetch.usesIncrementalPath = false
            let recorders = (ResultsRecorder<Row>(), ResultsRecorder<Row>())
            incremental.delegate = recorders.0
            refetch.delegate = recorders.1
            try await incremental.performFetch()
            try await refetch.performFetch()
            pairs.append((incremental, refetch, recorders))
        }
        for number in 1...400 {
            let operations = (0..<random.int(1...3)).map { _ in RandomOperation.make(&random) }
            do {
                try await store.write { tx in for operation in operations { try operation.apply(tx, dialect: .sqlite) } }
            } catch is FetchKitError {}
            for (index, pair) in pairs.enumerated() {
                await pair.incremental.sync()
                await pair.refetch.sync()
                let context = "seed \(seed), transaction \(number), request \(index), operations \(operations)"
                try await ResultsOracle.checkMatchesFreshFetch(pair.incremental, in: store)
                #expect(pair.incremental.fetchedObjects == pair.refetch.fetchedObjects, "\(context)")
                let batches = (pair.recorders.0.updates, pair.recorders.1.updates)
                // The same rows and sections come and go, with as many moves; which of two rows that swap is
                // the move may differ (the incremental path moves the changed one), and both batches must pass
                // ListSimulator.
                #expect(batches.0.count == batches.1.count, "\(context)")
                for (incremental, refetch) in zip(batches.0.map(\.changeset), batches.1.map(\.changeset)) {
                    #expect(incremental?.sectionDeletes == refetch?.sectionDeletes, "\(context)")
                    #expect(incremental?.sectionInserts == refetch?.sectionInserts, "\(context)")
                    #expect(incremental?.rowDeletes == refetch?.rowDeletes, "\(context)")
                    #expect(incremental?.rowInserts == refetch?.rowInserts, "\(context)")
                    #expect(incremental?.rowMoves.count == refetch?.rowMoves.count, "\(context)")
                }
                for update in batches.1 { try ResultsOracle.check(update, primaryKey: "id") }
                for update in batches.0 { try ResultsOracle.check(update, primaryKey: "id") }
                pair.recorders.0.reset()
                pair.recorders.1.reset()
            }
        }
        let incremental = pairs.map { Self.paths($0.incremental).incremental }.reduce(0, +)
        let forced = pairs.map { Self.paths($0.refetch).incremental }.reduce(0, +)
        #expect(incremental > 400, "the incremental path was taken (\(incremental) times)")
        #expect(forced == 0)
        await store.close()
    }
}
