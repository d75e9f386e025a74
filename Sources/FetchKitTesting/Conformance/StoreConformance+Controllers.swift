import FetchKit
import FetchKitFixtures
import Foundation

/// The live-controller checks: sections, each kind of row change, related tables, limits, request changes,
/// the updates stream, typed records and staged batches, each write checked against the oracle; and which
/// changes take the incremental path, which must be the same on every backend.
extension StoreConformance {
    typealias Harness = ControllerHarness

    /// Todos sectioned by their category's name.
    static let todosByCategory = FetchRequest(
        entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
        sectionNameKeyPath: "category.name")

    /// The live-controller checks.
    static var controllerChecks: [Check] {
        [
            Check(
                name: "controller: the first fetch builds sections and calls no delegate method",
                body: { try await $0.checkInitialFetch(on: $1) }),
            Check(
                name: "controller: insert, update, move and delete are each one batch, applied incrementally",
                body: { try await $0.checkRowChanges(on: $1) }),
            Check(
                name: "controller: a section a move empties is deleted in the same batch",
                body: { try await $0.checkEmptiedSection(on: $1) }),
            Check(name: "controller: the database decides membership", body: { try await $0.checkMembership(on: $1) }),
            Check(
                name: "controller: related-table changes re-section rows without a refetch",
                body: { try await $0.checkRelatedTables(on: $1) }),
            Check(
                name: "controller: a to-many change re-evaluates only the rows it pointed at, without a refetch",
                body: { try await $0.checkToManyRelationships(on: $1) }),
            Check(
                name: "controller: changes it cannot localise refetch", body: { try await $0.checkRefetches(on: $1) }),
            Check(
                name: "controller: a limited window holds live, refilled by keyset queries",
                body: { try await $0.checkLimitedWindow(on: $1) }),
            Check(
                name: "controller: a window below its limit stays incremental",
                body: { try await $0.checkWindowBelowLimit(on: $1) }),
            Check(
                name: "controller: a new request is one batch; a bad one changes nothing",
                body: { try await $0.checkRequestChange(on: $1) }),
            Check(
                name: "controller: the updates stream starts with the current snapshot",
                body: { try await $0.checkUpdatesStream(on: $1) }),
            Check(name: "controller: typed records", body: { try await $0.checkTypedRecords(on: $1) }),
            Check(
                name: "controller: staged batches apply stage by stage",
                body: { try await $0.checkStagedBatches(on: $1) }),
            Check(
                name: "controller: a fetchLimit is never exceeded under churn",
                body: { try await $0.checkLimitUnderChurn(on: $1) }),
            Check(
                name: "controller: the incremental path equals refetch + diff under random writes",
                body: { try await $0.checkIncrementalEqualsRefetch(on: $1) }),
            Check(
                name: "controller: SUBQUERY, aggregates and arithmetic follow changes to the related table",
                body: { try await $0.checkExpressionControllers(on: $1) }),
            Check(
                name: "controller: a cancelled caller's performFetch, setRequest or moveObject does nothing",
                body: { try await $0.checkCancelledCallers(on: $1) }),
            Check(
                name: "controllers: a released controller goes with every task it started, its sequences end",
                body: { try await $0.checkTasksEndWithControllers(on: $1) })
        ]
    }

    func checkInitialFetch(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, Self.todosByCategory)
        let controller = harness.controller
        try expect(
            controller.sections.map(\.name) == ["", "Errands", "Home", "Work"],
            "sections \(controller.sections.map(\.name))")
        try expect(harness.ids(1) == [4, 3], "Errands \(harness.ids(1))")
        try expect(controller.sectionIndexTitles == ["E", "H", "W"], "index titles \(controller.sectionIndexTitles)")
        try expect(controller.rowPath(forKey: 5) == RowPath(section: 2, row: 0), "todo 5 is first in Home")
        try expect(controller.object(at: RowPath(section: 3, row: 0))?["title"] == "Write report", "first of Work")
        try expect(harness.recorder.events.isEmpty, "performFetch called the delegate")
    }

    func checkRowChanges(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, Self.todosByCategory)
        let inserted = try await harness.batch { tx in
            try tx.insert(Fixtures.TodoRecord(id: 11, title: "New", ordering: 1.5, categoryID: 2))
        }
        try expect(inserted.rowInserts == [RowPath(section: 2, row: 1)], "insert \(inserted)")
        let updated = try await harness.batch { tx in try tx.update("Todo", key: 11, set: ["title": "Renamed"]) }
        try expect(updated.rowUpdates.count == 1 && updated.rowMoves.isEmpty, "update \(updated)")
        let moved = try await harness.batch { tx in
            try tx.update("Todo", key: 11, set: ["categoryID": 1, "title": "Moved"])
        }
        try expect(moved.rowMoves.count == 1 && moved.rowMoves.first?.isUpdated == true, "move \(moved)")
        let deleted = try await harness.batch { tx in try tx.delete("Todo", key: 11) }
        try expect(deleted.rowDeletes.count == 1, "delete \(deleted)")
        // A write that changes nothing the request reads emits nothing.
        let none = try await harness.write { tx in try tx.update("Todo", key: 1, set: ["title": "Write report"]) }
        try expect(none == nil, "an unchanged row emitted \(String(describing: none))")
        try harness.expectPaths(5, 0, "single-row changes")
    }

    /// Seed 002: two sections of one row each; the row of the first is dragged into the second.
    func checkEmptiedSection(on store: any PersistentStore) async throws {
        let request = FetchRequest(
            entity: "Todo", predicate: try FetchPredicate(format: "id IN {5, 1}"),
            sortDescriptors: [.ascending("category.name"), .ascending("ordering")], sectionNameKeyPath: "category.name")
        let harness = try await Harness(store, request)
        try expect(harness.controller.sections.map(\.name) == ["Home", "Work"], "sections before")
        let batch = try await harness.batch { tx in try tx.update("Todo", key: 5, set: ["categoryID": 1]) }
        try expect(batch.sectionDeletes == [0], "the emptied section was not deleted: \(batch)")
        try expect(harness.controller.sections.map(\.name) == ["Work"] && harness.ids(0) == [5, 1], "after the move")
        // Every row of the results changes at once: the rows go back in without a refetch.
        try await harness.write { tx in
            try tx.update("Todo", key: 5, set: ["categoryID": 2])
            try tx.update("Todo", key: 1, set: ["title": "Both changed"])
        }
        try expect(harness.controller.sections.count == 2, "sections after both changed")
        try harness.expectPaths(2, 0, "moves between sections")
    }

    func checkMembership(on store: any PersistentStore) async throws {
        let request = FetchRequest(
            entity: "Todo", predicate: try FetchPredicate(format: "done == NO AND title BEGINSWITH[c] 'w'"),
            sortDescriptors: [.ascending("title", caseInsensitive: true)])
        let harness = try await Harness(store, request)
        try expect(harness.ids() == [1, 7], "members \(harness.ids())")
        let left = try await harness.batch { tx in try tx.update("Todo", key: 1, set: ["done": true]) }
        try expect(left.rowDeletes == [RowPath(section: 0, row: 0)], "leaving \(left)")
        let joined = try await harness.batch { tx in try tx.update("Todo", key: 4, set: ["title": "walk"]) }
        try expect(joined.rowInserts == [RowPath(section: 0, row: 0)] && harness.ids() == [4, 7], "joining \(joined)")
        try harness.expectPaths(2, 0, "membership changes")
    }

    /// Seed 000/002's shape: a change to a category re-reads only the todos pointing at it.
    func checkRelatedTables(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, Self.todosByCategory)
        let renamed = try await harness.batch { tx in try tx.update("Category", key: 3, set: ["name": "Zeta"]) }
        try expect(renamed.sectionInserts.count == 1 && renamed.sectionDeletes.count == 1, "rename \(renamed)")
        try expect(harness.controller.sections.map(\.name) == ["", "Home", "Work", "Zeta"], "sections after the rename")
        try harness.expectPaths(1, 0, "a related row renamed")
        try await harness.write { tx in
            try tx.update("Todo", key: 1, set: ["title": "both"])
            try tx.update("Category", key: 1, set: ["name": "Job"])
        }
        try harness.expectPaths(2, 0, "both tables in one transaction")
        let none = try await harness.write { tx in
            _ = try tx.insert(["id": 9, "name": "Empty", "position": 9], into: "Category")
        }
        try expect(none == nil, "a category no todo points at emitted \(String(describing: none))")
        // No todo points at it: the change router does not even wake the controller.
        try harness.expectPaths(2, 0, "an unrelated category")
        // A deletion in a related table refetches (foreign-key actions may have changed rows it cannot name).
        try await harness.write { tx in try tx.delete("Category", key: 9) }
        try harness.expectPaths(2, 1, "a related row deleted")
    }

    /// A controller reading a to-many relationship (`ANY todos.done == NO`, `todos.@count > 2`) re-evaluates, for a
    /// changed todo, only the categories it pointed at before and after (``TableChange/references``).
    func checkToManyRelationships(on store: any PersistentStore) async throws {
        let openTodos = try await Harness(
            store,
            FetchRequest(
                entity: "Category", predicate: try FetchPredicate(format: "ANY todos.done == NO"),
                sortDescriptors: [.ascending("name")]))
        let counted = try await Harness(
            store,
            FetchRequest(
                entity: "Category", predicate: try FetchPredicate(format: "todos.@count > 2 AND position >= 0"),
                sortDescriptors: [.descending("name")]))
        // The writes go through `openTodos`, which waits for its controller: the other one is waited for here.
        func settled() async throws -> [Int64] {
            await counted.controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(counted.controller, in: store)
            try counted.recorder.checkCallbackOrder()
            for update in counted.recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
            return counted.ids()
        }
        try expect(openTodos.ids() == [3, 2, 1] && counted.ids() == [1], "members \(openTodos.ids()) \(counted.ids())")
        // Home's only open todo is done: Home leaves.
        let left = try await openTodos.batch { tx in try tx.update("Todo", key: 5, set: ["done": true]) }
        try expect(left.rowDeletes.count == 1 && openTodos.ids() == [3, 1], "leaving \(left)")
        // Two open todos move from Errands to Home: Errands leaves, Home comes back and reaches three todos.
        try await openTodos.write { tx in
            try tx.update("Todo", key: 3, set: ["categoryID": 2])
            try tx.update("Todo", key: 4, set: ["categoryID": 2])
        }
        var countedIDs = try await settled()
        try expect(openTodos.ids() == [2, 1] && countedIDs == [1, 2], "moved: \(openTodos.ids()) \(countedIDs)")
        // Work's open todos are deleted: Work leaves one, keeps its two done todos.
        try await openTodos.write { tx in _ = try tx.delete("Todo", where: try FetchPredicate(format: "id IN {1, 7}")) }
        countedIDs = try await settled()
        try expect(openTodos.ids() == [2] && countedIDs == [2], "deleted: \(openTodos.ids()) \(countedIDs)")
        // A new open todo brings Work back.
        try await openTodos.write { tx in
            try tx.insert(Fixtures.TodoRecord(id: 20, title: "new", done: false, categoryID: 1))
        }
        countedIDs = try await settled()
        try expect(
            openTodos.ids() == [2, 1] && countedIDs == [1, 2], "inserted: \(openTodos.ids()) \(countedIDs)")
        try openTodos.expectPaths(4, 0, "todos changed")
        // A todo in no category changes no category: no controller wakes.
        try await openTodos.write { tx in try tx.update("Todo", key: 8, set: ["done": false]) }
        try openTodos.expectPaths(4, 0, "a todo in no category")
        // A category's own change is re-read with the predicate.
        try await openTodos.write { tx in try tx.update("Category", key: 2, set: ["name": "Zuhause"]) }
        try expect(openTodos.ids() == [1, 2], "renamed: \(openTodos.ids())")
        try openTodos.expectPaths(5, 0, "a category renamed")
        _ = try await settled()
        // It may have folded changes that waited for it into one: how many steps it took varies, never a refetch.
        try expect(counted.paths.full == 0 && counted.paths.incremental > 0, "counting controller: \(counted.paths)")
    }

    func checkRefetches(on store: any PersistentStore) async throws {
        // A transaction of thousands of rows: one step, by whichever path the store's measured costs favour (no
        // count forces a refetch), ending equal to a fresh fetch.
        let harness = try await Harness(store, Self.todosByCategory)
        let count = 2_500
        try await harness.write { tx in
            for id in 100..<(100 + count) {
                try tx.insert(Fixtures.TodoRecord(id: Int64(id), title: "bulk \(id)", categoryID: 2))
            }
        }
        let bulk = harness.paths
        try expect(bulk.incremental + bulk.full == 1, "a 2,500-row transaction took \(bulk)")
        try expect(harness.controller.fetchedObjects.count == 10 + count, "bulk insert count")
        // A request with an offset always refetches.
        let offset = try await Harness(
            store,
            FetchRequest(
                entity: "Todo", sortDescriptors: [.descending("id")], fetchLimit: 4, fetchOffset: 2))
        try await offset.write { tx in try tx.update("Todo", key: 7, set: ["title": "x"]) }
        try offset.expectPaths(0, 1, "a request with an offset")
    }

    func checkLimitedWindow(on store: any PersistentStore) async throws {
        let harness = try await Harness(
            store, FetchRequest(entity: "Todo", sortDescriptors: [.descending("priority")], fetchLimit: 3))
        try expect(harness.ids() == [5, 7, 1], "window \(harness.ids())")
        // An insert at the top pushes the last row out: one insert, one delete, no refetch.
        let pushed = try await harness.batch { tx in
            try tx.insert(Fixtures.TodoRecord(id: 20, title: "Top", priority: 9))
        }
        try expect(
            pushed.rowInserts.count == 1 && pushed.rowDeletes.count == 1 && harness.ids() == [20, 5, 7],
            "pushed \(pushed)")
        // A row from outside moving in, and a row inside moving within.
        try await harness.write { tx in try tx.update("Todo", key: 9, set: ["priority": 6]) }
        try expect(harness.ids() == [20, 9, 5], "moved in: \(harness.ids())")
        try await harness.write { tx in try tx.update("Todo", key: 5, set: ["priority": 8]) }
        try expect(harness.ids() == [20, 5, 9], "moved within: \(harness.ids())")
        let none = try await harness.write { tx in try tx.update("Todo", key: 10, set: ["priority": 0]) }
        try expect(none == nil, "a change outside the window emitted \(String(describing: none))")
        try harness.expectPaths(4, 0, "changes in and around the window")
        // A row leaving a full window: a keyset query after the old last row refills it.
        let refilled = try await harness.batch { tx in try tx.delete("Todo", key: 20) }
        try expect(
            refilled.rowDeletes == [RowPath(section: 0, row: 0)]
                && refilled.rowInserts == [RowPath(section: 0, row: 2)],
            "refill \(refilled)")
        try expect(harness.ids() == [5, 9, 7], "after the refill: \(harness.ids())")
        try await harness.write { tx in try tx.update("Todo", key: 5, set: ["priority": -5]) }
        try expect(harness.ids() == [9, 7, 1], "after a row left downwards: \(harness.ids())")
        try harness.expectPaths(6, 0, "refills")
        try expect(harness.controller.statistics.keysetRefills >= 2, "refills \(harness.controller.statistics)")
    }

    func checkWindowBelowLimit(on store: any PersistentStore) async throws {
        let harness = try await Harness(
            store,
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "priority >= 4"),
                sortDescriptors: [.ascending("title")], fetchLimit: 3))
        try expect(harness.ids() == [5, 7], "window \(harness.ids())")
        try await harness.write { tx in try tx.update("Todo", key: 1, set: ["priority": 4]) }
        try expect(harness.ids() == [5, 7, 1], "joined: \(harness.ids())")
        try await harness.write { tx in try tx.insert(Fixtures.TodoRecord(id: 30, title: "A first", priority: 4)) }
        try expect(harness.ids() == [30, 5, 7], "pushed in at the top: \(harness.ids())")
        try harness.expectPaths(2, 0, "a window below its limit")
    }

    func checkRequestChange(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, Self.todosByCategory)
        var next = Self.todosByCategory
        next.predicate = try FetchPredicate(format: "done == NO")
        next.sortDescriptors = [.ascending("category.name"), .descending("priority")]
        try await harness.controller.setRequest(next)
        guard let update = harness.recorder.updates.last else {
            throw ConformanceFailure("setRequest emitted no batch")
        }
        try ResultsOracle.check(update, primaryKey: "id")
        try await ResultsOracle.checkMatchesFreshFetch(harness.controller, in: store)
        var bad = next
        bad.predicate = try FetchPredicate(format: "compleet == YES")
        let before = harness.controller.fetchedObjects
        do {
            try await harness.controller.setRequest(bad)
            throw ConformanceFailure("a request with an unknown key was accepted")
        } catch is FetchKitError {}
        try expect(
            harness.controller.fetchedObjects == before && harness.controller.request == next,
            "a failed setRequest changed the controller")
        try expect(harness.recorder.updates.count == 1, "a failed setRequest called the delegate")
    }

    func checkUpdatesStream(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, Self.todosByCategory)
        var iterator = harness.controller.updates().makeAsyncIterator()
        guard let first = try await iterator.next() else { throw ConformanceFailure("the stream ended") }
        try expect(first.changeset == nil && first.snapshot.fetchedObjects.count == 10, "first element \(first)")
        try await harness.write { tx in try tx.delete("Todo", key: 1) }
        guard let second = try await iterator.next() else { throw ConformanceFailure("the stream ended") }
        try expect(second.changeset?.rowDeletes == [RowPath(section: 3, row: 0)], "second element \(second)")
        try expect(second.transactionID != nil, "a store change without a transaction ID")
    }

    func checkTypedRecords(on store: any PersistentStore) async throws {
        let controller = ResultsController(
            store: store, request: FetchRequest(Fixtures.TodoRecord.self, sortDescriptors: [.ascending("title")]))
        try await controller.performFetch()
        try expect(
            controller.fetchedObjects.first?.title == "Buy milk",
            "first \(String(describing: controller.fetchedObjects.first))")
        guard let record = controller.fetchedObjects.last else { throw ConformanceFailure("no records") }
        try expect(controller.rowPath(for: record) == RowPath(section: 0, row: 9), "the last record's path")
        _ = try await store.write { tx in try tx.update("Todo", key: .integer(record.id ?? 0), set: ["title": "AAA"]) }
        await controller.sync()
        try expect(controller.fetchedObjects.first?.id == record.id, "the renamed record moved to the top")
    }

    /// Seed 003: collection-view batches.
    func checkStagedBatches(on store: any PersistentStore) async throws {
        let harness = try await Harness(store, Self.todosByCategory)
        try await harness.write { tx in
            try tx.insert(Fixtures.TodoRecord(id: 30, title: "Staged", ordering: 0, categoryID: 3))
            try tx.update("Todo", key: 5, set: ["categoryID": 1, "title": "moved and changed"])
            try tx.delete("Todo", key: 2)
            try tx.update("Todo", key: 7, set: ["notes": "payload"])
            try tx.update("Category", key: 2, set: ["name": "Alpha"])
        }
        guard let update = harness.recorder.updates.last, let changeset = update.changeset else {
            throw ConformanceFailure("the write emitted no batch")
        }
        let steps = try update.staged()
        try expect(
            steps.last.map { $0.sections.map(\.name) } == harness.controller.sections.map(\.name),
            "the last stage's sections")
        let old = update.previous.sections.map { (section: $0.name, rows: Array($0.objects)) }
        let new = update.snapshot.sections.map { (section: $0.name, rows: Array($0.objects)) }
        _ = try ListSimulator.applyStaged(
            try changeset.staged(), to: old, expecting: new, identifiedBy: { $0["id"] ?? .null })
    }

    /// Seed 003: a fetchLimit holds under heavy churn.
    func checkLimitUnderChurn(on store: any PersistentStore) async throws {
        let harness = try await Harness(
            store,
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
                sortDescriptors: [.ascending("ordering"), .descending("priority")], fetchLimit: 4))
        var random = SeededRandom(seed: 3)
        for step in 0..<300 {
            let id = Int64(random.int(1...25))
            let ordering = Double(random.int(-10...10))
            let kind = random.int(0..<4)
            try await harness.write { tx in
                switch kind {
                case 0:
                    try tx.upsert(
                        ["id": .integer(id), "title": .text("churn \(step)"), "ordering": .double(ordering)],
                        into: "Todo")
                case 1: try tx.delete("Todo", key: .integer(id))
                case 2: try tx.update("Todo", key: .integer(id), set: ["done": .bool(step % 3 == 0)])
                default: try tx.update("Todo", key: .integer(id), set: ["ordering": .double(ordering)])
                }
            }
            try expect(
                harness.controller.fetchedObjects.count <= 4,
                "step \(step): \(harness.controller.fetchedObjects.count) rows")
        }
    }
}
