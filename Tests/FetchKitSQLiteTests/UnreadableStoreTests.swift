import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Synchronization
import Testing

/// A store whose reads can be made to fail (a database that stops answering), around a real SQLite store.
final class UnreadableStore: Sendable {
    /// Whether reads fail.
    final class Switch: Sendable {
        let failing = Mutex(false)
    }

    let reads = Switch()
    let store: InterceptingStore

    init(_ base: SQLiteStore) {
        let reads = reads
        store = InterceptingStore(base) {
            if reads.failing.withLock({ $0 }) { throw FetchKitError.connectionLost("the test made reads fail") }
        }
    }
}

/// A change is never marked applied unless it was: when every read fails, the change router retries, the
/// affected controllers stay pending (`sync()` waits), and they catch up once the database answers.
@Suite("Live results when the database stops answering reads")
struct UnreadableStoreTests {
    @Test("reads fail: sync() waits and the results stay as they were; reads work again: the controllers catch up")
    func pendingUntilReadsWork() async throws {
        let unreadable = UnreadableStore(try await SQLiteStore.inMemory(schema: Fixtures.schema))
        let store = unreadable.store
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let requests = [
            FetchRequest(entity: "Todo", predicate: .key("done") == false, sortDescriptors: [.ascending("title")]),
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "ANY category.todos.priority > 1"),
                sortDescriptors: [.ascending("id")])
        ]
        let controllers = try await StoreConformance.liveControllers(on: store, requests: requests)
        let before = controllers.map { $0.0.fetchedObjects }

        unreadable.reads.failing.withLock { $0 = true }
        let inserted = try await store.write { tx in
            try tx.insert(
                Fixtures.TodoRecord(title: "written while reads fail", priority: 5, done: false, categoryID: 1))
        }
        let first = store.lastTransactionID
        // The same row written again while the controllers are behind: one batch covers both transactions.
        try await store.write { tx in
            _ = try tx.update("Todo", key: .integer(inserted.id ?? 0), set: ["title": "written while reads fail"])
        }
        let second = store.lastTransactionID
        let synced = Mutex(false)
        let waiting = controllers.map(\.0)
        let waiter = Task { [waiting] in
            for controller in waiting { await controller.sync() }
            synced.withLock { $0 = true }
        }
        // Each controller tries to read the change and fails; on a loaded machine that can take a while (its
        // status may say it is catching up meanwhile), so wait for it, then give sync() time to return wrongly.
        let deadline = ContinuousClock.now + .seconds(30)
        func allResyncing() -> Bool {
            controllers.allSatisfy { if case .resyncing = $0.0.status { true } else { false } }
        }
        while !allResyncing(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(400))
        #expect(!synced.withLock { $0 }, "sync() returned while no controller could read the change")
        // The failure is not silent: each controller says it is resyncing, and why.
        for (controller, recorder) in controllers {
            guard case .resyncing(let error) = controller.status, error.code == .connectionLost else {
                Issue.record("status \(controller.status) while reads fail")
                continue
            }
            #expect(recorder.failures.isEmpty, "a transient failure reported as permanent")
        }
        var statuses = controllers[0].0.statusUpdates().makeAsyncIterator()
        #expect(await statuses.next().map { if case .resyncing = $0 { true } else { false } } == true)
        #expect(controllers.map { $0.0.fetchedObjects } == before, "the results changed without a read")

        unreadable.reads.failing.withLock { $0 = false }
        await waiter.value
        #expect(await statuses.next() == .live, "the status sequence did not report the controller live again")
        #expect(controllers.allSatisfy { $0.0.status == .live })
        for (controller, recorder) in controllers {
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            try recorder.checkCallbackOrder()
            for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        }
        #expect(controllers[0].0.fetchedObjects.contains { $0["title"] == "written while reads fail" })
        let covering = try #require(controllers[0].1.updates.last?.transactions)
        #expect(covering.contains(first) && covering.contains(second), "the catch-up batch covers \(covering)")
        #expect(controllers.allSatisfy { $0.0.appliedTransactionID >= second })
        for (controller, _) in controllers { controller.delegate = nil }
        await store.close()
    }
}
