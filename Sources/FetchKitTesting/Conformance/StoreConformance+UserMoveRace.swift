import FetchKit
import FetchKitFixtures
import Foundation
import Synchronization

/// A user's drag that races other writers: the table view has already moved the row when it tells the
/// controller (``ResultsController/userMovedRow(from:to:)``), on the actor its delegate's callbacks run on;
/// every batch the table then receives must apply to what it shows, none may move, insert or delete the dragged
/// row (the table shows it where the user put it), and the table must end equal to a fresh fetch.
extension StoreConformance {
    static var userMoveRaceChecks: [Check] {
        [
            Check(
                name: "user moves: a commit between the drop and the move's processing, by paths",
                body: { try await $0.checkCommitBetweenDropAndMove(byKey: false, on: $1) }),
            Check(
                name: "user moves: a commit between the drop and the move's processing, by key",
                body: { try await $0.checkCommitBetweenDropAndMove(byKey: true, on: $1) }),
            Check(
                name: "user moves: a commit re-read before a renumbering move's write does not undo it",
                body: { try await $0.checkRereadBeforeMoveWrite(on: $1) }),
            Check(
                name: "user moves: 100 drops racing a writer, delegate on the UI's actor",
                body: { try await $0.checkDropsRacingWriter(on: $1) }),
            Check(
                name: "user moves: an update sequence's reader drops rows while a writer commits",
                body: { try await $0.checkSequenceDropsRacingWriter(on: $1) })
        ]
    }

    /// A table view's state, on its own actor: sections and primary keys, changed only by the user's drops and
    /// the batches its adapter receives.
    actor TableUI {
        typealias Shown = [(section: String, rows: [Value])]
        private(set) var shown: Shown = []
        private(set) var batches = 0
        private(set) var failures: [String] = []

        private(set) var hasResults = false
        /// The rows whose drop is not written yet, with the number of batches the table had at the drop.
        private var inFlight: [Value: Int] = [:]
        /// The batches that moved, inserted or deleted a row in flight.
        private var touches: [Value: [String]] = [:]
        /// Rows whose written move a batch undid or redid: the user saw the row bounce.
        private(set) var bounces: [String] = []
        /// The batches that moved, inserted or deleted any row.
        private(set) var reorders: [String] = []
        /// Drops pick only rows with a key up to this (the rows another writer leaves alone).
        var userKeys: Int64 = .max

        func setUserKeys(_ keys: Int64) { userKeys = keys }

        /// The user's drop of `key` is done: when it was written, no batch since the drop may have touched it.
        func settle(_ key: Value, written: Bool) {
            if written, let seen = touches[key], !seen.isEmpty {
                bounces.append("row \(key), dropped after batch \(inFlight[key] ?? -1), touched by batches \(seen)")
            }
            inFlight[key] = nil
            touches[key] = nil
        }

        func reset(to shown: Shown) { self.shown = shown }

        /// Reads `updates` on this actor, as a UI's loop would: the first element is the results, each later
        /// one a batch; drops run between elements.
        func read(_ updates: ResultsStream<Row>) async throws {
            for try await update in updates {
                if update.changeset == nil {
                    shown = TableUI.shown(update.snapshot)
                    hasResults = true
                } else {
                    apply(update)
                }
            }
        }

        /// Applies a batch as a table view would (``ListSimulator``), recording any that does not apply.
        func apply(_ update: ResultsBatch<Row>) {
            guard let changeset = update.changeset else { return }
            batches += 1
            let changed = Self.structurallyChanged(changeset, update)
            if !changed.isEmpty { reorders.append("batch \(batches): \(changeset) of rows \(changed)") }
            if !inFlight.isEmpty {
                for key in changed where inFlight[key] != nil {
                    let (before, after) = (Self.shown(update.previous), Self.shown(update.snapshot))
                    touches[key, default: []].append("batch \(batches): \(changeset), \(before) -> \(after)")
                }
            }
            do {
                try ResultsOracle.check(update, primaryKey: "id")
                shown = try ListSimulator.apply(changeset, to: shown, expecting: TableUI.shown(update.snapshot))
            } catch {
                failures.append("batch \(batches): \(error)")
                shown = TableUI.shown(update.snapshot)
            }
        }

        /// The user drags the row at `from` to `to`: the table shows it there at once and tells the controller.
        /// Returns the move's task and the dragged row's key.
        func drop(from: RowPath, to: RowPath, tell: (RowPath, RowPath, Value, MoveDestination) -> Task<Void, any Error>)
            -> (move: Task<Void, any Error>, key: Value)
        {
            let key = shown[from.section].rows.remove(at: from.row)
            shown[to.section].rows.insert(key, at: to.row)
            inFlight[key] = batches
            let next = shown[to.section].rows.dropFirst(to.row + 1).first
            return (tell(from, to, key, next.map { .before($0) } ?? .endOfSection(shown[to.section].section)), key)
        }

        /// A random drop in what the table shows, told through `tell` in the same turn; `nil` when it shows no
        /// row.
        func randomDrop(
            _ random: inout SeededRandom, tell: (RowPath, RowPath, Value, MoveDestination) -> Task<Void, any Error>
        ) -> (move: Task<Void, any Error>, key: Value)? {
            let counts = shown.map(\.rows.count)
            // The user's rows that are not in flight: a row's drop is written before it is dragged again.
            let draggable = shown.indices.flatMap { section in
                shown[section].rows.indices.compactMap { row -> RowPath? in
                    let key = shown[section].rows[row]
                    guard inFlight[key] == nil, case .integer(let id) = key, id <= userKeys else { return nil }
                    return RowPath(section: section, row: row)
                }
            }
            guard !draggable.isEmpty else { return nil }
            let from = draggable[random.int(0..<draggable.count)]
            let fromSection = from.section
            // The drop lands before a row that is not in flight itself (or at a section's end): a drop named
            // "before" a row whose own drop then fails follows that row back, which is the move's meaning.
            let dragged = shown[from.section].rows[from.row]
            var to = RowPath(section: from.section, row: counts[from.section] - 1)
            for _ in 0..<20 {
                let toSection = random.int(0..<counts.count)
                let candidate = RowPath(
                    section: toSection, row: random.int(0...(counts[toSection] - (toSection == fromSection ? 1 : 0))))
                let rows = shown[toSection].rows.filter { $0 != dragged }
                if candidate.row == rows.count || inFlight[rows[candidate.row]] == nil {
                    to = candidate
                    break
                }
            }
            return drop(from: from, to: to, tell: tell)
        }

        /// The keys of the rows `changeset` moves, inserts or deletes (alone or with their section).
        static func structurallyChanged(_ changeset: Changeset, _ update: ResultsBatch<Row>) -> [Value] {
            let before = update.previous
            let after = update.snapshot
            var keys = changeset.rowDeletes.map { before.object(at: $0)?["id"] ?? .null }
            keys += changeset.rowMoves.map { before.object(at: $0.from)?["id"] ?? .null }
            keys += changeset.rowInserts.map { after.object(at: $0)?["id"] ?? .null }
            for section in changeset.sectionDeletes where before.sections.indices.contains(section) {
                keys += before.sections[section].objects.map { $0["id"] ?? .null }
            }
            for section in changeset.sectionInserts where after.sections.indices.contains(section) {
                keys += after.sections[section].objects.map { $0["id"] ?? .null }
            }
            return keys
        }

        static func shown(_ snapshot: ResultsSnapshot<Row>) -> Shown {
            snapshot.sections.map { (section: $0.name, rows: $0.objects.map { $0["id"] ?? .null }) }
        }
    }

    /// The table view's adapter: its callbacks run on the table's actor
    /// (``ResultsController/setDelegate(_:isolation:)``).
    final class TableAdapter: ResultsControllerDelegate, Sendable {
        let ui: TableUI
        init(ui: TableUI) { self.ui = ui }

        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            // Traps unless the controller runs the callback on the table's actor.
            ui.assumeIsolated { $0.apply(update) }
        }
    }

    /// Checks the table after the race: every batch applied, no written drop bounced, and it shows the
    /// controller's results, which equal a fresh fetch.
    func checkTable(
        _ ui: TableUI, _ controller: ResultsController<Row>, in store: any PersistentStore
    ) async throws {
        await controller.sync()
        let (shown, failures, bounces) = await (ui.shown, ui.failures, ui.bounces)
        try expect(failures.isEmpty, "batches that do not apply to what the table shows: \(failures.prefix(3))")
        try expect(bounces.isEmpty, "the dragged row bounced: \(bounces.prefix(3))")
        let expected = TableUI.shown(controller.snapshot)
        try expect(
            shown.map(\.section) == expected.map(\.section) && shown.map(\.rows) == expected.map(\.rows),
            "the table shows \(shown), the results are \(expected)")
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
    }

    /// A controller of the first reorder request whose delegate is a table's adapter, on the table's actor.
    private func tableController(on store: any PersistentStore) async throws -> (
        TableUI, TableAdapter, ResultsController<Row>
    ) {
        let ui = TableUI()
        let adapter = TableAdapter(ui: ui)
        let controller = ResultsController(store: store, request: Self.reorderRequests[0])
        controller.setDelegate(adapter, isolation: ui)
        try await controller.performFetch()
        await ui.reset(to: TableUI.shown(controller.snapshot))
        return (ui, adapter, controller)
    }

    /// Random drops on `ui` (each told through `tell`) while a writer commits `writes` random transactions;
    /// waits for both and returns how many drops failed because their row or neighbour left meanwhile.
    private func drops(
        _ count: Int, on ui: TableUI, seeds: (drops: UInt64, writes: UInt64), writes: Int, store: any PersistentStore,
        tell: @escaping @Sendable (RowPath, RowPath, Value, MoveDestination) -> Task<Void, any Error>
    ) async throws -> Int {
        // The user drags the rows there are now; another writer inserts rows and changes only those.
        let userKeys = try await store.fetch(FetchRequest(entity: "Todo")).compactMap { $0["id", as: Int64.self] }.max()
        await ui.setUserKeys(userKeys ?? 0)
        let writing = Task {
            var random = SeededRandom(seed: seeds.writes)
            var bystander = Bystander(userKeys: userKeys ?? 0)
            try await bystander.write(writes, to: store, using: &random)
        }
        var random = SeededRandom(seed: seeds.drops)
        var moves: [Task<Bool, Never>] = []
        for _ in 0..<count {
            // Chosen and dropped in one turn of the table's actor: no batch comes between.
            guard let (move, key) = await ui.randomDrop(&random, tell: tell) else { break }
            moves.append(
                Task {
                    // The table hears how the drop ended; a failed one gets its row back, which is no bounce.
                    var written = true
                    do { try await move.value } catch let error as FetchKitError
                        where error.code == .invalidValue || error.code == .constraintViolation
                    {
                        // The row's new neighbour left meanwhile: nothing was written.
                        written = false
                    } catch {
                        written = false
                    }
                    await ui.settle(key, written: written)
                    return written
                })
            try await Task.sleep(for: .milliseconds(random.int(0..<3)))
        }
        try await writing.value
        var failed = 0
        for move in moves where await !move.value { failed += 1 }
        return failed
    }

    func checkCommitBetweenDropAndMove(byKey: Bool, on store: any PersistentStore) async throws {
        // Sections "", Errands, Home, Work; Home holds todos 5 and 6.
        let (ui, adapter, controller) = try await tableController(on: store)
        for round in 0..<4 {
            let hold = await controller.holdProcessing()
            // Another writer commits: a todo at the top of Errands, one out of Home, a rename.
            try await store.write { tx in
                _ = try tx.insert(
                    [
                        "title": .text("errand \(round)"), "priority": 1, "done": false, "categoryID": 3,
                        "ordering": .double(-100 - Double(round))
                    ], into: "Todo")
                _ = try tx.update("Todo", key: 7, set: ["title": .text("renamed \(round)")])
            }
            await hold.waitForRoutedChanges()
            // The user drops the first row of Home at the top of Errands: the writer's batch is computed from
            // the results before the drop, and delivered after it.
            let homeIndex = await ui.shown.firstIndex { $0.section == "Home" }
            guard let home = homeIndex, let errands = await ui.shown.firstIndex(where: { $0.section == "Errands" })
            else {
                throw ConformanceFailure("round \(round): no Home or Errands section: \(await ui.shown)")
            }
            let before = await ui.batches
            let (move, key) = await ui.drop(from: RowPath(section: home, row: 0), to: RowPath(section: errands, row: 0))
            {
                from, to, key, destination in
                Task.immediate {
                    byKey
                        ? try await controller.userMovedRow(withKey: key, to: destination)
                        : try await controller.userMovedRow(from: from, to: to)
                }
            }
            hold.release()
            try await move.value
            await ui.settle(key, written: true)
            try await checkTable(ui, controller, in: store)
            try expect(await ui.batches > before, "round \(round): the writer's batch never reached the table")
            // Home refills for the next round.
            try await store.write { tx in
                _ = try tx.insert(
                    [
                        "title": .text("home \(round)"), "priority": 1, "done": false, "categoryID": 2,
                        "ordering": .double(Double(round))
                    ], into: "Todo")
            }
            try await checkTable(ui, controller, in: store)
        }
        withExtendedLifetime(adapter) {}
    }

    /// A drop whose write renumbers its section (Errands holds a `NULL` order value), while another writer's
    /// commit names rows of that section: the router re-reads them before the move's write, and the commit is
    /// queued behind the move. Applied after the move, those rows' images would carry the order values from
    /// before the renumbering and reorder what the move just wrote; no batch may move, insert or delete a row.
    func checkRereadBeforeMoveWrite(on store: any PersistentStore) async throws {
        let (ui, adapter, controller) = try await tableController(on: store)
        let hold = await controller.holdProcessing()
        // Todo 1 (first in Work) to the end of Errands, which holds todos 3 (3.5) and 4 (NULL).
        let sections = await ui.shown
        guard let work = sections.firstIndex(where: { $0.section == "Work" }),
            let errands = sections.firstIndex(where: { $0.section == "Errands" })
        else {
            throw ConformanceFailure("no Work or Errands section: \(sections)")
        }
        let (move, key) = await ui.drop(
            from: RowPath(section: work, row: 0), to: RowPath(section: errands, row: sections[errands].rows.count)
        ) { from, to, _, _ in
            Task.immediate { try await controller.userMovedRow(from: from, to: to) }
        }
        try expect(key == 1, "the drop took todo \(key), not todo 1")
        // Another writer renames Errands' todos; the router re-reads them while the move waits.
        try await store.write { tx in
            _ = try tx.update("Todo", key: 3, set: ["title": "renamed 3"])
            _ = try tx.update("Todo", key: 4, set: ["title": "renamed 4"])
        }
        await hold.waitForRoutedChanges()
        hold.release()
        try await move.value
        await ui.settle(key, written: true)
        try await checkTable(ui, controller, in: store)
        let reorders = await ui.reorders
        try expect(reorders.isEmpty, "a rename and a drop the table shows reordered it: \(reorders.prefix(3))")
        withExtendedLifetime(adapter) {}
    }

    func checkDropsRacingWriter(on store: any PersistentStore) async throws {
        let (ui, adapter, controller) = try await tableController(on: store)
        let failed = try await drops(100, on: ui, seeds: (17, 41), writes: 150, store: store) {
            from, to, key, destination in
            Task.immediate {
                from.row % 2 == 0
                    ? try await controller.userMovedRow(from: from, to: to)
                    : try await controller.userMovedRow(withKey: key, to: destination)
            }
        }
        try await checkTable(ui, controller, in: store)
        try expect(failed < 50, "\(failed) of 100 drops failed")
        withExtendedLifetime(adapter) {}
    }

    func checkSequenceDropsRacingWriter(on store: any PersistentStore) async throws {
        let ui = TableUI()
        let controller = ResultsController(store: store, request: Self.reorderRequests[1])
        try await controller.performFetch()
        let updates = controller.updates()
        // The reader applies each element on the table's actor; the drops run there too, between elements.
        let reading = Task { try await ui.read(updates) }
        while await !ui.hasResults { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await drops(60, on: ui, seeds: (19, 43), writes: 100, store: store) { from, to, key, destination in
            Task.immediate {
                from.row % 2 == 0
                    ? try await updates.userMovedRow(from: from, to: to)
                    : try await updates.userMovedRow(withKey: key, to: destination)
            }
        }
        await controller.sync()
        // The reader catches up with the controller's results.
        let deadline = ContinuousClock.now + .seconds(30)
        while await ui.shown.map(\.rows) != TableUI.shown(controller.snapshot).map(\.rows),
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        reading.cancel()
        let (shown, failures, bounces) = await (ui.shown, ui.failures, ui.bounces)
        try expect(failures.isEmpty, "elements that do not apply to what the reader shows: \(failures.prefix(3))")
        try expect(bounces.isEmpty, "the dragged row bounced: \(bounces.prefix(3))")
        try expect(shown.map(\.rows) == TableUI.shown(controller.snapshot).map(\.rows), "the reader did not converge")
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
    }
}
