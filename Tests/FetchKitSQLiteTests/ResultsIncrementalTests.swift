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

    @Test func otherChangesRefetch() async throws {
        let harness = try await Harness(ResultsControllerTests.byCategory)
        // A related table the request reads.
        try await harness.write { tx in try tx.update("Category", key: 3, set: ["name": "Zeta"]) }
        #expect(Self.paths(harness.controller) == (0, 1))
        // Both tables in one transaction.
        try await harness.write { tx in
            try tx.update("Task", key: 1, set: ["title": "both"])
            try tx.update("Category", key: 1, set: ["name": "Job"])
        }
        #expect(Self.paths(harness.controller) == (0, 2))
        // More keys than the incremental limit.
        let count = ResultsController<Row>.incrementalKeyLimit + 1
        try await harness.write { tx in
            for id in 100..<(100 + count) {
                try tx.insert(Fixtures.TaskRecord(id: Int64(id), title: "bulk \(id)", categoryID: 2))
            }
        }
        #expect(Self.paths(harness.controller) == (0, 3))
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
        // A row leaving a full window: the window is refilled by the refetch path.
        try await harness.write { tx in try tx.delete("Task", key: 20) }
        #expect(harness.ids(0) == [5, 9, 7])
        try await harness.write { tx in try tx.update("Task", key: 5, set: ["priority": -5]) }
        #expect(harness.ids(0) == [9, 7, 1])
        #expect(Self.paths(harness.controller) == (4, 2))
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
    /// after every commit both equal a fresh fetch, each other, and emit the same batch.
    @Test func incrementalEqualsRefetchOnRandomWrites() async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x1_0C4E
        var random = SeededRandom(seed: seed)
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        var pairs: [(incremental: ResultsController<Row>, refetch: ResultsController<Row>,
                     recorders: (ResultsRecorder<Row>, ResultsRecorder<Row>))] = []
        for request in LiveResultsModelTests.requests {
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
                try await store.write { tx in for operation in operations { try operation.apply(tx) } }
            } catch is FetchKitError {}
            for (index, pair) in pairs.enumerated() {
                await pair.incremental.sync()
                await pair.refetch.sync()
                let context = "seed \(seed), transaction \(number), request \(index), operations \(operations)"
                try await ResultsOracle.checkMatchesFreshFetch(pair.incremental, in: store)
                #expect(pair.incremental.fetchedObjects == pair.refetch.fetchedObjects, "\(context)")
                let batches = (pair.recorders.0.updates, pair.recorders.1.updates)
                #expect(batches.0.map(\.changeset) == batches.1.map(\.changeset), "\(context)")
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

/// The plan that splices re-read rows into the old ones.
@Suite("ResultsWindowPlan")
struct ResultsWindowPlanTests {
    static let order = SortKeyOrder([], primaryKey: "id")
    static func keys(_ ids: [Int64]) -> [SortKey] { ids.map { order.key(values: [], primaryKey: .integer($0)) } }

    static func splice(_ old: [Int64], removing removed: [Int], fresh: [Int64], limit: Int?) -> [Int64]? {
        ResultsWindowPlan(oldKeys: keys(old), removed: removed, freshKeys: keys(fresh), limit: limit)
            .map { $0.splice(old: old, fresh: fresh) }
    }

    @Test func insertsRemovesAndReplaces() {
        #expect(Self.splice([10, 20, 30], removing: [1], fresh: [5, 25, 40], limit: nil) == [5, 10, 25, 30, 40])
        #expect(Self.splice([10, 20, 30], removing: [0, 1, 2], fresh: [], limit: nil) == [])
        #expect(Self.splice([], removing: [], fresh: [1, 2], limit: nil) == [1, 2])
        #expect(Self.splice([10, 20, 30], removing: [1], fresh: [20], limit: nil) == [10, 20, 30])
    }

    @Test func limitsPushOutAndRefuseToGuess() {
        // Not full: everything is known, cut to the limit.
        #expect(Self.splice([10, 20], removing: [], fresh: [5, 40], limit: 3) == [5, 10, 20])
        // Full: a row past the last one cannot be placed; the window still has its 3 rows.
        #expect(Self.splice([10, 20, 30], removing: [], fresh: [40], limit: 3) == [10, 20, 30])
        #expect(Self.splice([10, 20, 30], removing: [], fresh: [15, 40], limit: 3) == [10, 15, 20])
        // Full and shrinking: must be refilled.
        #expect(Self.splice([10, 20, 30], removing: [2], fresh: [40], limit: 3) == nil)
        #expect(Self.splice([10, 20, 30], removing: [0], fresh: [], limit: 3) == nil)
        #expect(Self.splice([10, 20, 30], removing: [0], fresh: [25], limit: 3) == [20, 25, 30])
        #expect(Self.splice([10, 20, 30], removing: [2], fresh: [30], limit: 3) == [10, 20, 30])
    }
}
