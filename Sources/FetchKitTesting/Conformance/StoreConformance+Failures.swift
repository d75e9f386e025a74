import FetchKit
import Foundation
import Synchronization

/// The failure channel and section identity, on every backend: sections are told apart byte for byte, an
/// order that cannot keep every section together is a typed error before the fetch,
/// and a controller that stops following the database says so (status, delegate, update sequence, `sync()`).
extension StoreConformance {
    static var failureChecks: [Check] {
        [
            Check(
                name: "sections: values equal under Swift's String == but not byte for byte are two sections",
                body: { try await $0.checkSectionsByteWise(on: $1) }),
            Check(
                name: "sections: an order that splits a section is refused by performFetch and setRequest",
                body: { try await $0.checkSectionOrderRefused(on: $1) }),
            Check(
                name: "sections: an order a write could split is refused before fetching, so no write stops it",
                body: { try await $0.checkSectionOrderBrokenLive(on: $1) }),
            Check(
                name:
                    "failure: a column the request reads renamed under a live controller stops it; performFetch "
                    + "restarts it",
                requiresSQL: true,
                body: { try await $0.checkPermanentFailure(on: $1) }),
            Check(
                name: "failure: multi and composite controllers forward their controllers' failures", requiresSQL: true,
                body: { try await $0.checkFailuresForwarded(on: $1) })
        ]
    }

    /// The request over the rows these checks insert (priority 9), sectioned by title.
    private static func titled(caseInsensitive: Bool = false) -> FetchRequest<Row> {
        FetchRequest(
            entity: "Todo", predicate: .key("priority") == 9,
            sortDescriptors: [.ascending("title", caseInsensitive: caseInsensitive), .ascending("id")],
            sectionNameKeyPath: "title")
    }

    func checkSectionsByteWise(on store: any PersistentStore) async throws {
        let composed = "Caf\u{E9}"  // é as one code point
        let decomposed = "Cafe\u{301}"  // e and a combining acute accent
        try expect(composed == decomposed, "Swift's String == is canonical equivalence")
        try await store.write { tx in
            for (id, title) in [(101, decomposed), (102, composed), (103, decomposed), (104, composed)] {
                try tx.insert(
                    ["id": .integer(Int64(id)), "title": .text(title), "priority": 9, "done": false], into: "Todo")
            }
        }
        let harness = try await ControllerHarness(store, Self.titled())
        let names = harness.controller.sections.map(\.name)
        try expect(
            names.count == 2, "\(names.count) sections for two byte-distinct values: \(names.map { Array($0.utf8) })")
        try expect(
            Array(names[0].utf8) == Array(decomposed.utf8) && Array(names[1].utf8) == Array(composed.utf8),
            "sections not in byte order: \(names.map { Array($0.utf8) })")
        try expect(
            harness.ids(0) == [101, 103] && harness.ids(1) == [102, 104], "rows \(harness.ids(0)) \(harness.ids(1))")
        try await ResultsOracle.checkMatchesFreshFetch(harness.controller, in: store)
        // Live: a row of each form joins its own section; a refetch keeps working.
        let changeset = try await harness.batch { tx in
            try tx.insert(["id": 105, "title": .text(composed), "priority": 9, "done": false], into: "Todo")
            try tx.insert(["id": 106, "title": .text(decomposed), "priority": 9, "done": false], into: "Todo")
        }
        try expect(changeset.sectionInserts.isEmpty && changeset.rowInserts.count == 2, "batch \(changeset)")
        try expect(harness.ids(0) == [101, 103, 106] && harness.ids(1) == [102, 104, 105], "rows after the inserts")
        try await harness.controller.setRequest(Self.titled())
        try expect(harness.controller.status.isFollowing, "status \(harness.controller.status) after a refetch")
        // A row moving from one form to the other moves between the sections.
        let moved = try await harness.batch { tx in _ = try tx.update("Todo", key: 101, set: ["title": .text(composed)])
        }
        try expect(
            moved.rowMoves.count == 1 || (moved.rowDeletes.count == 1 && moved.rowInserts.count == 1), "batch \(moved)")
        try expect(harness.ids(0) == [103, 106] && harness.ids(1) == [101, 102, 104, 105], "rows after the move")
    }

    func checkSectionOrderRefused(on store: any PersistentStore) async throws {
        // Sorted case-insensitively, then by id: apple (101), Apple (102), apple (103) — "apple" twice.
        try await store.write { tx in
            for (id, title) in [(101, "apple"), (102, "Apple"), (103, "apple")] {
                try tx.insert(
                    ["id": .integer(Int64(id)), "title": .text(title), "priority": 9, "done": false], into: "Todo")
            }
        }
        let controller = ResultsController(store: store, request: Self.titled(caseInsensitive: true))
        do {
            try await controller.performFetch()
            throw ConformanceFailure("performFetch accepted an order that splits section 'apple'")
        } catch let error as FetchKitError where error.code == .sectionOrder {
            try Self.expectSectionOrderRefusal(error, fix: "with a case-sensitive comparison")
        }
        try expect(controller.status == .idle, "status \(controller.status) after a refused first fetch")
        // setRequest refuses it too and keeps the request, the results and the delegate's view.
        let harness = try await ControllerHarness(store, Self.titled())
        let before = harness.controller.fetchedObjects
        do {
            try await harness.controller.setRequest(Self.titled(caseInsensitive: true))
            throw ConformanceFailure("setRequest accepted an order that splits section 'apple'")
        } catch let error as FetchKitError where error.code == .sectionOrder {
            try Self.expectSectionOrderRefusal(error, fix: "with a case-sensitive comparison")
        }
        try expect(
            harness.controller.request == Self.titled() && harness.controller.fetchedObjects == before,
            "a refused setRequest changed the controller")
        try expect(
            harness.recorder.updates.isEmpty && harness.controller.status.isFollowing, "a refused setRequest was seen")
        // The case-sensitive order keeps each spelling together.
        try expect(
            harness.controller.sections.map(\.name) == ["Apple", "apple"],
            "sections \(harness.controller.sections.map(\.name))")
        // Another sort descriptor before the section key path's spreads a section over its order.
        var priorityFirst = Self.titled()
        priorityFirst.sortDescriptors.insert(.ascending("priority"), at: 0)
        do {
            try await harness.controller.setRequest(priorityFirst)
            throw ConformanceFailure("setRequest accepted a sort descriptor before the section key path's")
        } catch let error as FetchKitError where error.code == .sectionOrder {
            try Self.expectSectionOrderRefusal(error, fix: "leave 'title' out of the sort descriptors")
        }
        // A multi-controller refuses at performFetch when any of its requests could split a section.
        let multi = try MultiResultsController(
            store: store, requests: ["byTitle": Self.titled(), "folded": Self.titled(caseInsensitive: true)],
            initial: "byTitle")
        do {
            try await multi.performFetch()
            throw ConformanceFailure("a multi-controller accepted a request whose order splits a section")
        } catch let error as FetchKitError where error.code == .sectionOrder {
            try Self.expectSectionOrderRefusal(error, fix: "with a case-sensitive comparison")
        }
        try expect(multi.status == .idle, "multi status \(multi.status) after a refused fetch")
    }

    /// A request refused before fetching: the section key path named, no section, the fix in the message.
    private static func expectSectionOrderRefusal(_ error: FetchKitError, fix: String) throws {
        try expect(
            error.keyPath == "title" && error.section == nil,
            "error names \(String(describing: error.keyPath)), \(String(describing: error.section))")
        try expect(
            error.message.contains("sort by 'title' first") && error.message.contains(fix), "message \(error.message)")
    }

    func checkSectionOrderBrokenLive(on store: any PersistentStore) async throws {
        try await store.write { tx in
            for id in [101, 103] {
                try tx.insert(["id": .integer(Int64(id)), "title": "apple", "priority": 9, "done": false], into: "Todo")
            }
        }
        // Nothing splits a section yet, but "Apple" could sort between the two "apple" rows: the request is
        // refused before a write can stop the controller.
        let refused = ResultsController(store: store, request: Self.titled(caseInsensitive: true))
        do {
            try await refused.performFetch()
            throw ConformanceFailure("performFetch accepted an order that a write can split")
        } catch let error as FetchKitError where error.code == .sectionOrder {
            try Self.expectSectionOrderRefusal(error, fix: "with a case-sensitive comparison")
        }
        // The case-sensitive order takes the same write live, in a section of its own.
        let harness = try await ControllerHarness(store, Self.titled())
        let changeset = try await harness.batch { tx in
            _ = try tx.insert(["id": 102, "title": "Apple", "priority": 9, "done": false], into: "Todo")
        }
        try expect(changeset.sectionInserts.count == 1, "batch \(changeset)")
        try expect(harness.controller.status.isFollowing, "status \(harness.controller.status)")
        try expect(
            harness.controller.sections.map(\.name) == ["Apple", "apple"],
            "sections \(harness.controller.sections.map(\.name))")
        try await ResultsOracle.checkMatchesFreshFetch(harness.controller, in: store)
        try harness.recorder.checkCallbackOrder()
        for update in harness.recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
    }

    func checkPermanentFailure(on store: any PersistentStore) async throws {
        let harness = try await ControllerHarness(
            store,
            FetchRequest(
                entity: "Todo", predicate: .key("done") == false,
                sortDescriptors: [.ascending("title"), .ascending("id")]))
        let before = harness.controller.fetchedObjects
        // Another deployment renames a column the request reads, then writes.
        try await store.write { tx in
            try tx.execute(#"ALTER TABLE "todo" RENAME COLUMN "title" TO "headline""#, [])
            try tx.execute(#"UPDATE "todo" SET "priority" = "priority" + 1 WHERE "id" = 1"#, [])
        }
        await harness.controller.sync()
        guard case .failed(let error) = harness.controller.status else {
            throw ConformanceFailure(
                "status \(harness.controller.status) after the schema changed under the controller")
        }
        try expect(!error.isTransient, "\(error) taken for transient")
        try expect(harness.recorder.failures == [error], "delegate heard \(harness.recorder.failures)")
        try expect(harness.controller.fetchedObjects == before, "the results changed")
        // The column comes back: performFetch starts the controller again, and it follows later writes.
        _ = try await store.write { tx in try tx.execute(#"ALTER TABLE "todo" RENAME COLUMN "headline" TO "title""#, [])
        }
        try await harness.controller.performFetch()
        try expect(harness.controller.status.isFollowing, "status \(harness.controller.status) after performFetch")
        try await harness.write { tx in _ = try tx.update("Todo", key: 2, set: ["title": "renamed back"]) }
        try expect(harness.recorder.failures.count == 1, "a failure after the restart")
    }
}

extension StoreConformance {
    func checkFailuresForwarded(on store: any PersistentStore) async throws {
        let multi = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "open")
        let multiRecorder = MultiResultsRecorder<Row>()
        multi.delegate = multiRecorder
        try await multi.performFetch()
        let categories = ResultsController(
            store: store, request: FetchRequest(entity: "Category", sortDescriptors: [.ascending("name")]))
        let todos = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("title"), .ascending("id")]))
        let composite = CompositeResultsController()
        try composite.add(categories)
        try composite.add(todos, limit: 3)
        let recorder = CompositeRecorder()
        composite.delegate = recorder
        try await composite.performFetch()
        try expect(
            multi.status.isFollowing && composite.status.isFollowing, "statuses \(multi.status), \(composite.status)")
        // The columns the multi-controller's current request ("open", by ordering) and the composite's todo part
        // (by title) sort by are renamed, then a todo changes.
        _ = try await store.write { tx in
            try tx.execute(#"ALTER TABLE "todo" RENAME COLUMN "ordering" TO "ordinal""#, [])
            try tx.execute(#"ALTER TABLE "todo" RENAME COLUMN "title" TO "headline""#, [])
            try tx.execute(#"UPDATE "todo" SET "priority" = "priority" + 1 WHERE "id" = 1"#, [])
        }
        await multi.sync()
        await composite.sync()
        guard case .failed = multi.status else { throw ConformanceFailure("multi status \(multi.status)") }
        try expect(
            multiRecorder.failures.count == 1, "the multi delegate heard \(multiRecorder.failures.count) failures")
        guard case .failed = composite.status else { throw ConformanceFailure("composite status \(composite.status)") }
        try expect(categories.status.isFollowing, "the categories part stopped: \(categories.status)")
        let deadline = ContinuousClock.now + .seconds(10)
        while recorder.failures.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try expect(recorder.failures.count == 1, "the composite delegate heard \(recorder.failures.count) failures")
    }
}
