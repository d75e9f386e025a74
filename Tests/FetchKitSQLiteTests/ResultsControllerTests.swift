import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// A live controller over SQLite, checked by the oracle after every commit.
@Suite("ResultsController over SQLite")
struct ResultsControllerTests {
    /// A store seeded with the fixture rows, a controller over `request`, and a recorder as its delegate.
    struct Harness {
        let store: SQLiteStore
        let controller: ResultsController<Row>
        let recorder = ResultsRecorder<Row>()

        init(_ request: FetchRequest) async throws {
            store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
            try await store.write { tx in try Fixtures.insertSampleData(tx) }
            controller = ResultsController(store: store, request: request)
            controller.delegate = recorder
            try await controller.performFetch()
        }

        /// Writes, waits for the controller, and checks the oracle; returns the batch, if any.
        @discardableResult
        func write(_ body: @escaping @Sendable (any WriteTransaction) throws -> Void) async throws -> Changeset? {
            let before = recorder.updates.count
            try await store.write(body)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            try recorder.checkCallbackOrder()
            let updates = recorder.updates
            guard updates.count > before else { return nil }
            #expect(updates.count == before + 1, "one batch per transaction")
            let update = try #require(updates.last)
            try ResultsOracle.check(update, primaryKey: "id")
            return update.changeset
        }

        /// Inserts task 11 into Home, renames it, moves it to Work while changing it, deletes it; checks each batch.
        func insertUpdateMoveDelete() async throws {
            let inserted = try #require(try await write { tx in
                try tx.insert(Fixtures.TaskRecord(id: 11, title: "New", ordering: 1.5, categoryID: 2))
            })
            #expect(inserted.rowInserts == [RowPath(section: 2, row: 1)])
            let updated = try #require(try await write { tx in
                try tx.update("Task", key: 11, set: ["title": "Renamed"])
            })
            #expect(updated.rowUpdates.count == 1 && updated.rowMoves.isEmpty)
            let moved = try #require(try await write { tx in
                try tx.update("Task", key: 11, set: ["categoryID": 1, "title": "Moved"])
            })
            #expect(moved.rowMoves.count == 1 && moved.rowMoves.first?.isUpdated == true)
            let deleted = try #require(try await write { tx in try tx.delete("Task", key: 11) })
            #expect(deleted.rowDeletes.count == 1)
        }

        func ids(_ section: Int) -> [Int64] {
            controller.sections[section].objects.map { $0["id", as: Int64.self] ?? -1 }
        }
    }

    static let byCategory = FetchRequest(
        entity: "Task", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
        sectionNameKeyPath: "category.name")

    @Test func initialFetchBuildsSections() async throws {
        let harness = try await Harness(Self.byCategory)
        #expect(harness.controller.sections.map(\.name) == ["", "Errands", "Home", "Work"])
        #expect(harness.ids(1) == [4, 3])
        #expect(harness.controller.sectionIndexTitles == ["E", "H", "W"])
        #expect(harness.controller.rowPath(forKey: 5) == RowPath(section: 2, row: 0))
        #expect(harness.controller.object(at: RowPath(section: 3, row: 0))?["title"] == "Write report")
        #expect(harness.recorder.events.isEmpty, "performFetch calls no delegate method")
    }

    @Test func insertUpdateMoveDelete() async throws {
        let harness = try await Harness(Self.byCategory)
        try await harness.insertUpdateMoveDelete()
        // A write that changes nothing the request reads emits nothing.
        let none = try await harness.write { tx in try tx.update("Task", key: 1, set: ["title": "Write report"]) }
        #expect(none == nil)
    }

    /// Seed 002: two sections of one row each; the row of the first is dragged into the second.
    /// The emptied section must be deleted in the same valid batch.
    @Test func emptiedSectionIsDeletedInTheSameBatch() async throws {
        let request = FetchRequest(
            entity: "Task", predicate: try FetchPredicate(format: "id IN {5, 1}"),
            sortDescriptors: [.ascending("category.name"), .ascending("ordering")], sectionNameKeyPath: "category.name")
        let harness = try await Harness(request)
        #expect(harness.controller.sections.map(\.name) == ["Home", "Work"])
        let batch = try #require(try await harness.write { tx in try tx.update("Task", key: 5, set: ["categoryID": 1]) })
        #expect(batch.sectionDeletes == [0])
        #expect(harness.controller.sections.map(\.name) == ["Work"])
        #expect(harness.ids(0) == [5, 1])
    }

    @Test func relatedTableChangeMovesRows() async throws {
        let harness = try await Harness(Self.byCategory)
        // Renaming a category re-sections its tasks: a change to the related table the request reads.
        let batch = try #require(try await harness.write { tx in
            try tx.update("Category", key: 3, set: ["name": "Zeta"])
        })
        #expect(batch.sectionInserts.count == 1 && batch.sectionDeletes.count == 1)
        #expect(harness.controller.sections.map(\.name) == ["", "Home", "Work", "Zeta"])
    }

    @Test func fetchLimitHoldsLive() async throws {
        let request = FetchRequest(entity: "Task", sortDescriptors: [.descending("priority")], fetchLimit: 3)
        let harness = try await Harness(request)
        #expect(harness.ids(0) == [5, 7, 1])
        try await harness.write { tx in try tx.insert(Fixtures.TaskRecord(id: 20, title: "Top", priority: 9)) }
        #expect(harness.ids(0) == [20, 5, 7])
        try await harness.write { tx in try tx.delete("Task", key: 20) }
        try await harness.write { tx in try tx.delete("Task", key: 5) }
        #expect(harness.ids(0) == [7, 1, 9])
        #expect(harness.controller.fetchedObjects.count == 3)
    }

    @Test func changingTheRequestEmitsABatch() async throws {
        let harness = try await Harness(Self.byCategory)
        var next = Self.byCategory
        next.predicate = try FetchPredicate(format: "done == NO")
        next.sortDescriptors = [.ascending("category.name"), .descending("priority")]
        try await harness.controller.setRequest(next)
        let update = try #require(harness.recorder.updates.last)
        try ResultsOracle.check(update, primaryKey: "id")
        try await ResultsOracle.checkMatchesFreshFetch(harness.controller, in: harness.store)
        // A bad request throws and leaves everything as it was.
        var bad = next
        bad.predicate = try FetchPredicate(format: "compleet == YES")
        let before = harness.controller.fetchedObjects
        await #expect(throws: FetchKitError.self) { try await harness.controller.setRequest(bad) }
        #expect(harness.controller.fetchedObjects == before)
        #expect(harness.controller.request == next)
    }

    @Test func updatesStreamStartsWithTheCurrentSnapshot() async throws {
        let harness = try await Harness(Self.byCategory)
        var iterator = harness.controller.updates().makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.changeset == nil)
        #expect(first.snapshot.fetchedObjects.count == 10)
        try await harness.write { tx in try tx.delete("Task", key: 1) }
        let second = try #require(await iterator.next())
        #expect(second.changeset?.rowDeletes == [RowPath(section: 3, row: 0)])
        #expect(second.transactionID != nil)
    }

    @Test func typedRecordsController() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let controller = ResultsController(
            store: store, request: FetchRequest(Fixtures.TaskRecord.self, sortDescriptors: [.ascending("title")]),
            as: Fixtures.TaskRecord.self)
        try await controller.performFetch()
        #expect(controller.fetchedObjects.first?.title == "Buy milk")
        let record = try #require(controller.fetchedObjects.last)
        #expect(controller.rowPath(for: record) == RowPath(section: 0, row: 9))
    }
}

/// Seed 003: collection-view batches and a fetchLimit that holds under churn.
@Suite("ResultsController: staged batches and live limits")
struct ResultsControllerStagedTests {
    @Test func stagedBatchesApplyStageByStage() async throws {
        let harness = try await ResultsControllerTests.Harness(ResultsControllerTests.byCategory)
        try await harness.write { tx in
            try tx.insert(Fixtures.TaskRecord(id: 30, title: "Staged", ordering: 0, categoryID: 3))
            try tx.update("Task", key: 5, set: ["categoryID": 1, "title": "moved and changed"])
            try tx.delete("Task", key: 2)
            try tx.update("Task", key: 7, set: ["notes": "payload"])
            try tx.update("Category", key: 2, set: ["name": "Alpha"])
        }
        let update = try #require(harness.recorder.updates.last)
        let steps = try update.staged()
        #expect(!steps.isEmpty)
        #expect(steps.last.map { $0.sections.map(\.name) } == harness.controller.sections.map(\.name))
        let staged = try #require(update.changeset).staged()
        let old = update.previous.sections.map { (section: $0.name, rows: Array($0.objects)) }
        let new = update.snapshot.sections.map { (section: $0.name, rows: Array($0.objects)) }
        _ = try ListSimulator.applyStaged(staged, to: old, expecting: new, identifiedBy: { $0["id"] ?? .null })
    }

    @Test func fetchLimitNeverExceededUnderChurn() async throws {
        let request = FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "done == NO"),
                                   sortDescriptors: [.ascending("ordering"), .descending("priority")], fetchLimit: 4)
        let harness = try await ResultsControllerTests.Harness(request)
        var random = SeededRandom(seed: 3)
        for step in 0..<300 {
            let id = Int64(random.int(1...25))
            let ordering = Double(random.int(-10...10))
            let kind = random.int(0..<4)
            try await harness.write { tx in
                switch kind {
                case 0: try tx.upsert(["id": .integer(id), "title": .text("churn \(step)"), "ordering": .double(ordering)], into: "Task")
                case 1: try tx.delete("Task", key: .integer(id))
                case 2: try tx.update("Task", key: .integer(id), set: ["done": .bool(step % 3 == 0)])
                default: try tx.update("Task", key: .integer(id), set: ["ordering": .double(ordering)])
                }
            }
            #expect(harness.controller.fetchedObjects.count <= 4)
        }
    }
}
