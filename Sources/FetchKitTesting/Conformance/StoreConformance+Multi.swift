import FetchKit
import FetchKitFixtures
import Foundation
import Synchronization

/// Seed 001: several named requests in one controller, with animated transitions between them.
extension StoreConformance {
    /// The named requests of the multi-controller checks: filters of one list, two sectionings with
    /// different sort orders, and one whose predicate names an attribute the entity does not have.
    static var multiRequests: [String: FetchRequest<Row>] {
        func predicate(_ format: String) -> FetchPredicate { (try? FetchPredicate(format: format)) ?? .false }
        return [
            "all": FetchRequest(entity: "Todo", sortDescriptors: [.ascending("ordering")]),
            "open": FetchRequest(
                entity: "Todo", predicate: predicate("done == NO"), sortDescriptors: [.ascending("ordering")]),
            "done": FetchRequest(
                entity: "Todo", predicate: predicate("done == YES"), sortDescriptors: [.ascending("ordering")]),
            "byCategory": FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("title")],
                sectionNameKeyPath: "category.name"),
            "byCategoryPriority": FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("category.name"), .descending("priority")],
                sectionNameKeyPath: "category.name"),
            "byDone": FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("done"), .descending("priority")],
                sectionNameKeyPath: "done"),
            "broken": FetchRequest(
                entity: "Todo", predicate: .comparison(.init(.key(.init("compleet")), .equal, .value(true))))
        ]
    }

    /// The multi-controller checks.
    static var multiChecks: [Check] {
        [
            Check(
                name: "multi: each transition is one valid batch, with the multi-controller as sender",
                body: { try await $0.checkTransitions(on: $1) }),
            Check(
                name: "multi: a failed transition changes nothing; live changes follow the current request",
                body: { try await $0.checkFailedTransitionsAndLiveChanges(on: $1) }),
            Check(
                name: "multi: inside a transition's callbacks the current name is the new one",
                body: { try await $0.checkNameInsideTransitions(on: $1) })
        ]
    }

    /// Records the multi-controller's current name inside each batch's first and last callbacks.
    private final class NameRecorder: ResultsControllerDelegate, Sendable {
        let names = Mutex<[String]>([])

        func controllerWillChangeContent(_ controller: MultiResultsController<Row>) {
            names.withLock { $0.append("will:" + controller.currentName) }
        }

        func controller(_ controller: MultiResultsController<Row>, didApply update: ResultsBatch<Row>) {
            names.withLock { $0.append("applied:" + controller.currentName) }
        }
    }

    func checkNameInsideTransitions(on store: any PersistentStore) async throws {
        let multi = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "open")
        let recorder = NameRecorder()
        multi.delegate = recorder
        try await multi.performFetch()
        for name in ["all", "done", "byCategory", "open"] {
            recorder.names.withLock { $0 = [] }
            try await multi.transition(to: name)
            let seen = recorder.names.withLock { $0 }
            try expect(
                !seen.isEmpty && seen == ["will:" + name, "applied:" + name],
                "transition to \(name): the callbacks read \(seen)")
        }
        // A failed transition's name is never visible.
        recorder.names.withLock { $0 = [] }
        do {
            try await multi.transition(to: "broken")
            throw ConformanceFailure("a transition to a request naming a missing attribute succeeded")
        } catch is FetchKitError {}
        try expect(
            multi.currentName == "open" && recorder.names.withLock { $0 }.isEmpty,
            "after a failed transition: \(multi.currentName), callbacks \(recorder.names.withLock { $0 })")
        multi.delegate = nil
    }

    /// Checks that `multi` holds a fresh fetch of its request and that the one batch `recorder` heard since
    /// its last reset is valid, in contract order, sent by `multi`.
    private func checkBatch(
        _ multi: MultiResultsController<Row>, _ recorder: MultiResultsRecorder<Row>,
        in store: any PersistentStore, _ what: String
    ) async throws {
        try await ResultsOracle.checkMatchesFreshFetch(multi.snapshot, of: multi.request, in: store)
        try recorder.checkCallbackOrder()
        let updates = recorder.updates
        try expect(updates.count <= 1, "\(what): \(updates.count) batches")
        for update in updates { try ResultsOracle.check(update, primaryKey: "id") }
        try expect(
            recorder.senders.isSubset(of: [ObjectIdentifier(multi)]), "\(what): a callback came from another sender")
        recorder.reset()
    }

    func checkTransitions(on store: any PersistentStore) async throws {
        let multi = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "open")
        let recorder = MultiResultsRecorder<Row>()
        multi.delegate = recorder
        try await multi.performFetch()
        try expect(recorder.events.isEmpty && multi.currentName == "open", "performFetch called the delegate")
        let path = [
            "all", "done", "open", "byCategory", "byCategoryPriority", "byDone", "byCategory", "all", "all", "done"
        ]
        for name in path {
            let before = multi.fetchedObjects
            try await multi.transition(to: name)
            try expect(multi.currentName == name, "current name \(multi.currentName) after transition to \(name)")
            try await checkBatch(multi, recorder, in: store, "transition to \(name)")
            if before == multi.fetchedObjects && multi.sections.count <= 1 {
                try expect(recorder.updates.isEmpty, "a transition that changes nothing emitted a batch")
            }
        }
        // From open to all the done todos come in; nothing the open list shows moves.
        try await multi.transition(to: "open")
        recorder.reset()
        try await multi.transition(to: "all")
        let opened = recorder.updates.first?.changeset
        try expect(
            opened?.rowInserts.count == 4 && opened?.rowDeletes.isEmpty == true && opened?.rowMoves.isEmpty == true,
            "open → all: \(String(describing: opened))")
        try await checkBatch(multi, recorder, in: store, "open → all")
    }

    func checkFailedTransitionsAndLiveChanges(on store: any PersistentStore) async throws {
        let multi = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "byCategory")
        let recorder = MultiResultsRecorder<Row>()
        multi.delegate = recorder
        try await multi.performFetch()
        let before = (multi.fetchedObjects, multi.sections.map(\.name), multi.request)
        for name in ["nope", "broken"] {
            do {
                try await multi.transition(to: name)
                throw ConformanceFailure("the transition to \(name) succeeded")
            } catch let error as FetchKitError {
                if name == "nope" {
                    try expect(
                        error == .unknownRequestName("nope", known: Self.multiRequests.keys.sorted()), "\(error)")
                    try expect(
                        error.requestName == "nope" && error.knownRequestNames == Self.multiRequests.keys.sorted(),
                        "fields \(error.requestName ?? "nil"), \(error.knownRequestNames ?? [])")
                }
            }
            try expect(
                multi.currentName == "byCategory" && multi.fetchedObjects == before.0
                    && multi.sections.map(\.name) == before.1 && multi.request == before.2,
                "a failed transition to \(name) changed the controller")
            try expect(recorder.events.isEmpty, "a failed transition to \(name) called the delegate")
        }
        do {
            _ = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "nope")
            throw ConformanceFailure("a multi-controller started on an unknown name")
        } catch let error as FetchKitError where error.code == .unknownRequestName {
            try expect(error.requestName == "nope", "requestName \(String(describing: error.requestName))")
        }

        // Live changes reach the delegate through the current request, sectioned or not.
        for name in ["byCategory", "open"] {
            try await multi.transition(to: name)
            recorder.reset()
            try await store.write { tx in
                try tx.update("Todo", key: 3, set: ["categoryID": 1, "title": .text("Moved by \(name)")])
                _ = try tx.insert(Fixtures.TodoRecord(title: "new in \(name)", ordering: -3, categoryID: 2))
            }
            await multi.sync()
            try expect(recorder.updates.count == 1, "a write under \(name) gave \(recorder.updates.count) batches")
            try await checkBatch(multi, recorder, in: store, "a live change under \(name)")
        }
        let rows = multi.fetchedObjects.compactMap { $0["title", as: String.self] }
        try expect(rows.contains("new in open") && rows.contains("Moved by open"), "live rows \(rows)")
    }
}
