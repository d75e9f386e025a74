import FetchKit
import Foundation
import Synchronization

/// Consumers slower than the commits: memory stays bounded (waiting changes collapse into one batch), no
/// change is lost, every delivered batch applies to what the consumer shows, and it ends at the current
/// results.
extension StoreConformance {
    static var deliveryChecks: [Check] {
        [
            Check(
                name: "delivery: a delegate sleeping 50 ms per batch while 2,000 transactions commit",
                body: { try await $0.checkSlowDelegate(on: $1) }),
            Check(
                name: "delivery: an updates() reader slower than the commits",
                body: { try await $0.checkSlowReader(on: $1) })
        ]
    }

    private static var churnRequest: FetchRequest<Row> {
        FetchRequest(
            entity: "Todo", predicate: .key("done") == false,
            sortDescriptors: [.ascending("priority"), .ascending("id")])
    }

    /// `count` transactions as fast as the store takes them (from step `start`): priorities change, rows come
    /// and go.
    private func churn(_ store: any PersistentStore, count: Int, from start: Int = 0) async throws {
        var inserted: [Int64] = []
        for step in 0..<start {
            // The rows the steps before `start` left in place.
            if step % 20 == 0 { inserted.append(Int64(1_000 + step)) }
            if step % 20 == 10, !inserted.isEmpty { inserted.removeFirst() }
        }
        for step in start..<(start + count) {
            try await store.write { [inserted] tx in
                _ = try tx.update(
                    "Todo", key: .integer(Int64(step % 10 + 1)), set: ["priority": .integer(Int64(step * 7 % 20))])
                if step % 20 == 0 {
                    try tx.insert(
                        [
                            "id": .integer(Int64(1_000 + step)), "title": .text("churn \(step)"),
                            "priority": .integer(Int64(step % 13)), "done": false
                        ], into: "Todo")
                }
                if step % 20 == 10, let first = inserted.first { _ = try tx.delete("Todo", key: .integer(first)) }
            }
            if step % 20 == 0 { inserted.append(Int64(1_000 + step)) }
            if step % 20 == 10, !inserted.isEmpty { inserted.removeFirst() }
        }
    }

    /// Checks that `updates` chain from `start` (each batch's previous results are the ones before it),
    /// pass ``ListSimulator``, and returns the results they end at.
    private static func checkChain(_ updates: [ResultsBatch<Row>], from start: ResultsSnapshot<Row>) throws
        -> ResultsSnapshot<Row>
    {
        var shown = start
        for (index, update) in updates.enumerated() {
            try expect(
                update.previous.fetchedObjects == shown.fetchedObjects
                    && update.previous.sections.map(\.name) == shown.sections.map(\.name),
                "batch \(index) does not start from what the consumer shows")
            try ResultsOracle.check(update, primaryKey: "id")
            shown = update.snapshot
        }
        return shown
    }

    func checkSlowDelegate(on store: any PersistentStore) async throws {
        let recorder = ResultsRecorder<Row>(delay: .milliseconds(50))
        let controller = ResultsController(store: store, request: Self.churnRequest)
        controller.delegate = recorder
        try await controller.performFetch()
        let start = controller.snapshot
        // The first 300 transactions commit while the controller is held (as behind a slow delegate under
        // load): more than 64 changes wait, so they must collapse, whatever the machine's speed.
        let hold = await controller.holdProcessing()
        try await churn(store, count: 300)
        await hold.waitForRoutedChanges()
        hold.release()
        try await churn(store, count: 1_700, from: 300)
        await controller.sync()
        let statistics = controller.statistics
        try expect(statistics.largestBacklog <= 65, "\(statistics.largestBacklog) changes waited at once (bound: 64)")
        try expect(statistics.coalescedDeliveries > 0, "a delegate 50 ms per batch never made the backlog collapse")
        let updates = recorder.updates
        try expect(updates.count < 2_000, "\(updates.count) batches for 2,000 transactions to a slow delegate")
        let shown = try Self.checkChain(updates, from: start)
        try recorder.checkCallbackOrder()
        try await ResultsOracle.checkMatchesFreshFetch(shown, of: Self.churnRequest, in: store)
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        try expect(controller.status.isFollowing, "status \(controller.status)")
    }

    func checkSlowReader(on store: any PersistentStore) async throws {
        let controller = ResultsController(store: store, request: Self.churnRequest)
        try await controller.performFetch()
        let updates = controller.updates(bufferingLimit: 8)
        let log = Mutex<[ResultsBatch<Row>]>([])
        let reader = Task {
            for try await update in updates {
                log.withLock { $0.append(update) }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        try await churn(store, count: 500)
        await controller.sync()
        let final = controller.snapshot
        // The reader catches up with the results the controller holds now.
        let deadline = ContinuousClock.now + .seconds(60)
        while log.withLock({ $0.last?.snapshot.fetchedObjects }) != final.fetchedObjects, ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        reader.cancel()
        let received = log.withLock { $0 }
        try expect(received.first?.changeset == nil, "the first element is not the current results")
        guard let first = received.first else { throw ConformanceFailure("the reader received nothing") }
        let batches = Array(received.dropFirst())
        try expect(batches.count < 500, "\(batches.count) elements for 500 transactions to a slow reader")
        try expect(
            batches.contains { ($0.transactions?.count ?? 0) > 1 }, "no coalesced element names its transactions")
        let shown = try Self.checkChain(batches, from: first.snapshot)
        try expect(shown.fetchedObjects == final.fetchedObjects, "the reader did not end at the controller's results")
        try await ResultsOracle.checkMatchesFreshFetch(shown, of: Self.churnRequest, in: store)
    }
}
