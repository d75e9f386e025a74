import FetchKit
import FetchKitFixtures
import Foundation
import Synchronization

/// A table view reads its data source — the controller's ``ResultsController/sections``,
/// ``ResultsController/object(at:)`` and ``ResultsController/fetchedObjects`` — while it applies a batch, and
/// raises "invalid number of rows in section" when the counts there disagree with the batch. So inside every
/// callback of a batch, those accessors must return the batch's results, including the user's drops the table
/// shows and the controller has not written yet (``ResultsController/userMovedRow(from:to:)``).
extension StoreConformance {
    static var userMoveDataSourceChecks: [Check] {
        [
            Check(
                name: "user moves: in every callback the data source equals the batch, drops racing a writer",
                body: { try await $0.checkDataSourceDuringBatches(on: $1) })
        ]
    }

    /// What a data source read from the controller in one callback: the sections with their keys through
    /// ``ResultsController/sections``, the keys through ``ResultsController/fetchedObjects``, and the keys through
    /// ``ResultsController/object(at:)`` at each path of those sections (`nil` past a section's end).
    struct DataSourceRead: Sendable {
        var callback: String
        var sections: TableUI.Shown
        var fetched: [Value]
        var byPath: [[Value]]
        /// Whether ``ResultsController/object(at:)`` returned an object one past a section's end.
        var pastEnd: Bool

        init(_ callback: String, from controller: ResultsController<Row>) {
            self.callback = callback
            let sections = controller.sections.map {
                (section: $0.name, rows: $0.objects.map { $0["id"] ?? .null })
            }
            self.sections = sections
            fetched = controller.fetchedObjects.map { $0["id"] ?? .null }
            byPath = sections.indices.map { section in
                sections[section].rows.indices.map { row in
                    controller.object(at: RowPath(section: section, row: row))?["id"] ?? .null
                }
            }
            pastEnd = sections.indices.contains { section in
                controller.object(at: RowPath(section: section, row: sections[section].rows.count)) != nil
            }
        }

        /// Why this read differs from `expected`, the batch's results; `nil` when it equals them.
        func mismatch(with expected: TableUI.Shown) -> String? {
            let counts = sections.map(\.rows.count)
            let expectedCounts = expected.map(\.rows.count)
            if sections.map(\.section) != expected.map(\.section) || counts != expectedCounts {
                return "in \(callback) the data source has sections \(sections.map(\.section)) with rows \(counts), "
                    + "the batch \(expected.map(\.section)) with rows \(expectedCounts)"
            }
            if sections.map(\.rows) != expected.map(\.rows) {
                return "in \(callback) the data source's sections hold \(sections.map(\.rows)), the batch's "
                    + "\(expected.map(\.rows))"
            }
            if fetched != expected.flatMap(\.rows) || byPath != expected.map(\.rows) || pastEnd {
                return "in \(callback) fetchedObjects or object(at:) disagree with sections: \(fetched), \(byPath)"
            }
            return nil
        }
    }

    /// A table view's adapter that is also its data source: in every callback of a batch it reads the
    /// controller, and once the batch is applied to the table (``TableUI/apply(_:)``) it checks each read
    /// against the batch's results and the table's row counts, as `endUpdates()` does.
    final class DataSourceAdapter: ResultsControllerDelegate, Sendable {
        let ui: TableUI
        private struct Log {
            var reads: [DataSourceRead] = []
            var failures: [String] = []
            var batches = 0
        }
        private let log = Mutex(Log())

        init(ui: TableUI) { self.ui = ui }

        /// The batches whose callbacks read something else than the batch's results, and how many batches came.
        var outcome: (failures: [String], batches: Int) { log.withLock { ($0.failures, $0.batches) } }

        private func read(_ callback: String, _ controller: ResultsController<Row>) {
            let read = DataSourceRead(callback, from: controller)
            log.withLock { $0.reads.append(read) }
        }

        func controllerWillChangeContent(_ controller: ResultsController<Row>) {
            read("controllerWillChangeContent", controller)
        }

        func controller(
            _ controller: ResultsController<Row>, didChange section: ResultsSection<Row>, atSectionIndex: Int?,
            for type: ResultsChangeType, newSectionIndex: Int?
        ) {
            read("the \(type) of section \(section.name)", controller)
        }

        func controller(
            _ controller: ResultsController<Row>, didChange object: Row, at rowPath: RowPath?,
            for type: ResultsChangeType, newRowPath: RowPath?
        ) {
            read("the \(type) of row \(object["id"] ?? .null)", controller)
        }

        func controllerDidChangeContent(_ controller: ResultsController<Row>) {
            read("controllerDidChangeContent", controller)
        }

        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            read("controller(_:didApply:)", controller)
            // Traps unless the controller runs the callback on the table's actor.
            let table = ui.assumeIsolated { ui in
                ui.apply(update)
                return ui.shown
            }
            let expected = TableUI.shown(update.snapshot)
            log.withLock { log in
                log.batches += 1
                let reads = log.reads
                log.reads = []
                var found = reads.compactMap { $0.mismatch(with: expected) }
                // UITableView's own check: the data source's counts after the batch equal the table's.
                if let last = reads.last, last.sections.map(\.rows.count) != table.map(\.rows.count) {
                    found.append(
                        "data source \(last.sections.map(\.rows.count)), table \(table.map(\.rows.count))")
                }
                if let first = found.first {
                    log.failures.append("batch \(log.batches) (\(found.count) reads wrong): \(first)")
                }
            }
        }
    }

    /// Drops racing one writer's transaction in the same sections each round, the drop told in the same turn of
    /// the table's actor (`Task.immediate`), by paths or by key; the adapter checks the data source in every
    /// callback.
    /// `FETCHKIT_ROUNDS` sets the number of rounds (1,000), `FETCHKIT_SEED` the seed.
    func checkDataSourceDuringBatches(on store: any PersistentStore) async throws {
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["FETCHKIT_ROUNDS"].flatMap(Int.init) ?? 1_000
        var random = SeededRandom(seed: environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0xDA7A_50CE)
        let ui = TableUI()
        let adapter = DataSourceAdapter(ui: ui)
        let controller = ResultsController(store: store, request: Self.reorderRequests[0])
        controller.setDelegate(adapter, isolation: ui)
        try await controller.performFetch()
        await ui.reset(to: TableUI.shown(controller.snapshot))
        // The user drags the rows there are now; the other writer inserts rows into the same sections and
        // renames or deletes only those.
        let userKeys = try await store.fetch(FetchRequest(entity: "Todo")).compactMap { $0["id", as: Int64.self] }.max()
        await ui.setUserKeys(userKeys ?? 0)
        // A few dozen rows of its own at most, so that each round costs the same.
        var bystander = Bystander(userKeys: userKeys ?? 0)
        bystander.ownLimit = 24
        var failedRounds: [Int] = []
        for round in 0..<rounds {
            let seed = random.next()
            // One round in ten holds the controller's queue so that the writer's batch is delivered after the
            // drop and before the move's write, every time; the others race.
            let hold = round % 10 == 0 ? await controller.holdProcessing() : nil
            let writing = Task { [bystander] in
                var writer = bystander
                var writes = SeededRandom(seed: seed)
                try await writer.write(1, to: store, using: &writes)
                return writer
            }
            if let hold {
                bystander = try await writing.value
                await hold.waitForRoutedChanges()
            }
            let byKey = random.int(0..<2) == 1
            let failuresBefore = adapter.outcome.failures.count
            guard
                let (move, key) = await ui.randomDrop(
                    &random,
                    tell: { from, to, key, destination in
                        Task.immediate {
                            byKey
                                ? try await controller.userMovedRow(withKey: key, to: destination)
                                : try await controller.userMovedRow(from: from, to: to)
                        }
                    })
            else {
                throw ConformanceFailure("round \(round): the table shows no row to drag")
            }
            hold?.release()
            bystander = try await writing.value
            // A drop before a row the writer deleted meanwhile fails, and the table gets the row back: the error is the
            // outcome the table model needs (whether the row stays where it was dropped), and every batch and the
            // final results are checked against the database below.
            let written = (try? await move.value) != nil
            await ui.settle(key, written: written)
            if adapter.outcome.failures.count > failuresBefore { failedRounds.append(round) }
        }
        let (failures, batches) = adapter.outcome
        try expect(
            failedRounds.isEmpty,
            "in \(failedRounds.count) of \(rounds) rounds (\(batches) batches) a callback read another data source "
                + "than the batch: \(failures.prefix(3))")
        try expect(batches >= rounds / 2, "only \(batches) batches reached the table in \(rounds) rounds")
        try await checkTable(ui, controller, in: store)
        withExtendedLifetime(adapter) {}
    }
}
