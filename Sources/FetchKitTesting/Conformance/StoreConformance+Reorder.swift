import FetchKit
import FetchKitFixtures
import Foundation

/// Seed 002: rows reordered by the user, across sections, interleaved with other writers' changes. A model
/// of the UI (keys per section, empty sections kept, as a table view keeps them after a drag) takes each
/// user move as the user made it and each batch as the delegate hears it; after every step it must equal the
/// controller's results, and the controller a fresh fetch.
extension StoreConformance {
    /// The requests users reorder: sections through a relationship with fractional (nullable) and integer
    /// order keys, sections by an attribute, and no sections.
    static let reorderRequests: [FetchRequest<Row>] = [
        FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
            sectionNameKeyPath: "category.name"),
        FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("priority")],
            sectionNameKeyPath: "category.name"),
        FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("done"), .ascending("priority")], sectionNameKeyPath: "done"),
        FetchRequest(entity: "Todo", sortDescriptors: [.ascending("ordering")])
    ]

    /// The reordering checks.
    static var reorderChecks: [Check] {
        reorderRequests.indices.map { index in
            Check(name: "reorder: user moves and other writers, request \(index)") { suite, store in
                try await suite.checkUserMoves(Self.reorderRequests[index], seed: UInt64(index + 1), on: store)
            }
        } + [
            Check(
                name: "reorder: the dragged row is silent, an emptied section is deleted, a request not sorted "
                    + "by an order key is refused", body: { try await $0.checkMoveBasics(on: $1) }),
            Check(
                name: "reorder: a move by key lands by identity after another writer shifted the rows",
                body: { try await $0.checkMovesByKey(on: $1) }),
            Check(
                name: "reorder: moves by key racing another writer's transactions end equal to a fresh fetch",
                body: { try await $0.checkMovesRacingWriters(on: $1) })
        ]
    }

    /// Section names and primary keys, as a table view holds them.
    private typealias Shown = [(section: String, rows: [Value])]

    private func shown(_ snapshot: ResultsSnapshot<Row>) -> Shown {
        snapshot.sections.map { (section: $0.name, rows: $0.objects.map { $0["id"] ?? .null }) }
    }

    /// Applies the batches `recorder` heard to `ui`, as a table view would; returns how many row changes
    /// they held.
    private func apply(_ recorder: ResultsRecorder<Row>, to ui: inout Shown, _ context: String) throws -> Int {
        try recorder.checkCallbackOrder()
        var rowChanges = 0
        for update in recorder.updates {
            guard let changeset = update.changeset else { continue }
            rowChanges +=
                changeset.rowDeletes.count + changeset.rowInserts.count + changeset.rowMoves.count
                + changeset.rowUpdates.count
            try ResultsOracle.check(update, primaryKey: "id")
            do {
                ui = try ListSimulator.apply(changeset, to: ui, expecting: shown(update.snapshot))
            } catch {
                throw ConformanceFailure("\(context): the batch does not apply to what the UI shows: \(error)")
            }
        }
        recorder.reset()
        return rowChanges
    }

    /// Checks the batches a move's own write produced: no row change touches the dragged row; the only row
    /// changes are updates of rows whose `order` value the move shifted. Returns how many there were.
    private func checkMoveEcho(_ recorder: ResultsRecorder<Row>, dragged: Value, order: String, _ context: String)
        throws -> Int
    {
        var shifted = 0
        for update in recorder.updates {
            guard let changeset = update.changeset else { continue }
            for change in changeset.rowUpdates {
                let before = update.previous.object(at: change.from)
                let after = update.snapshot.object(at: change.to)
                try expect(after?["id"] != dragged, "\(context): the dragged row \(dragged) was reported updated")
                try expect(
                    before?[order] != after?[order],
                    "\(context): row \(after?["id"] ?? .null) was updated without a shifted '\(order)'")
                shifted += 1
            }
        }
        return shifted
    }

    func checkUserMoves(_ request: FetchRequest<Row>, seed: UInt64, on store: any PersistentStore) async throws {
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        var ui = shown(controller.snapshot)
        var lastSent = controller.snapshot
        var random = SeededRandom(seed: seed)
        var moves = 0
        var shiftedRows = 0
        for step in 0..<150 {
            let context = "seed \(seed), step \(step)"
            let counts = ui.map(\.rows.count)
            if random.int(0..<3) == 0 || counts.reduce(0, +) == 0 {
                try await RandomOperation.writeTransactions(1, to: store, using: &random)
            } else {
                let sources = counts.indices.filter { counts[$0] > 0 }
                let fromSection = sources[random.int(0..<sources.count)]
                let from = RowPath(section: fromSection, row: random.int(0..<counts[fromSection]))
                let toSection = random.int(0..<counts.count)
                let to = RowPath(
                    section: toSection, row: random.int(0...(counts[toSection] - (toSection == fromSection ? 1 : 0))))
                // The user drags the row: the table view shows it at its new place at once.
                let key = ui[from.section].rows.remove(at: from.row)
                ui[to.section].rows.insert(key, at: to.row)
                if random.int(0..<2) == 0 {
                    try await controller.moveObject(from: from, to: to)
                } else {
                    // A remote client names the drop by the rows around it.
                    let next = ui[to.section].rows.dropFirst(to.row + 1).first
                    try await controller.moveObject(
                        withKey: key, to: next.map { .before($0) } ?? .endOfSection(ui[to.section].section))
                }
                moves += 1
                await controller.sync()
                let order = request.sortDescriptors[request.sortDescriptors.count - 1].key
                // The UI hears nothing of the dragged row; only an update of each row whose order value the move
                // shifted (an integer order attribute), which the UI shows with its old value.
                let shifted = try checkMoveEcho(
                    recorder, dragged: key, order: order, "\(context), move \(from) → \(to)")
                shiftedRows += shifted
                let rowChanges = try apply(recorder, to: &ui, "\(context), move \(from) → \(to)")
                try expect(
                    rowChanges == shifted,
                    "\(context): the move \(from) → \(to) was echoed with \(rowChanges - shifted) row changes")
            }
            await controller.sync()
            _ = try apply(recorder, to: &ui, context)
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            if step % 10 == 9 {
                // A client last sent the results ten steps ago catches up in one batch.
                let catchUp = try ResultsBatch(from: lastSent, to: controller.snapshot)
                try ResultsOracle.check(catchUp, primaryKey: "id")
                lastSent = controller.snapshot
            }
            let expected = shown(controller.snapshot)
            try expect(
                ui.map(\.section) == expected.map(\.section) && ui.map(\.rows) == expected.map(\.rows),
                "\(context): the UI shows \(ui), the results are \(expected)")
        }
        try expect(moves > 50, "only \(moves) user moves")
        // Integer order values shift their neighbours now and then (so do NULL fractional ones, renumbered).
        let order = request.sortDescriptors[request.sortDescriptors.count - 1].key
        try expect(order != "priority" || shiftedRows > 0, "no shifted row reported, ordered by '\(order)'")
        try expect(controller.statistics.fullRefreshes < 100, "moves should not refetch: \(controller.statistics)")
    }

    func checkMoveBasics(on store: any PersistentStore) async throws {
        // Home holds todos 5 and 6; Errands 4 and 3 (by ordering: NULL first). Drag 5 and 6 into Errands.
        let controller = ResultsController(store: store, request: Self.reorderRequests[0])
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        try expect(
            controller.sections.map(\.name) == ["", "Errands", "Home", "Work"],
            "sections \(controller.sections.map(\.name))")
        try await controller.moveObject(from: RowPath(section: 2, row: 0), to: RowPath(section: 1, row: 1))
        await controller.sync()
        // Errands' NULL ordering is renumbered (4 → 0, 3 → 2): the UI hears those two rows updated, nothing
        // of the dragged row 5.
        let renumbered = try checkMoveEcho(recorder, dragged: 5, order: "ordering", "moving 5 into Errands")
        let echoed = recorder.updates.compactMap(\.changeset)
        try expect(
            renumbered == 2 && echoed.allSatisfy { $0.changeCount == $0.rowUpdates.count },
            "a move that empties nothing should report the two renumbered rows alone: \(echoed)")
        recorder.reset()
        try await controller.moveObject(from: RowPath(section: 2, row: 0), to: RowPath(section: 1, row: 3))
        await controller.sync()
        let batches = recorder.updates.compactMap(\.changeset)
        try expect(
            batches.count == 1 && batches[0].sectionDeletes == [2] && batches[0].rowDeletes.isEmpty
                && batches[0].rowInserts.isEmpty && batches[0].rowMoves.isEmpty,
            "emptying Home should delete its section and nothing else: \(batches)")
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        let errands = controller.sections[1].objects.map { $0["id", as: Int64.self] ?? -1 }
        try expect(errands == [4, 5, 3, 6], "Errands \(errands)")
        let categories = try await store.fetch(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "id IN {5, 6}"))
        )
        .map { $0["categoryID"] ?? .null }
        try expect(categories == [.integer(3), .integer(3)], "the moved todos' categories \(categories)")

        let unsorted = ResultsController(
            store: store, request: FetchRequest(entity: "Todo", sortDescriptors: [.ascending("title")]))
        try await unsorted.performFetch()
        do {
            try await unsorted.moveObject(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 1))
            throw ConformanceFailure("a request sorted by text took a move")
        } catch let error as FetchKitError where error.code == .unsupported {}
        // A tiebreak after the order attribute is refused with the reason, and nothing is written.
        let tiebreak = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("ordering"), .ascending("title")]))
        try await tiebreak.performFetch()
        let before = try await store.fetch(FetchRequest(entity: "Todo"))
        do {
            try await tiebreak.moveObject(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 1))
            throw ConformanceFailure("a request with a sort descriptor after the order attribute took a move")
        } catch let error as FetchKitError where error.code == .unsupported {
            let message = error.message
            try expect(
                message.contains("'ordering' as the last sort descriptor") && message.contains("'title'"),
                "the refusal does not say why: \(message)")
        }
        try expect(try await store.fetch(FetchRequest(entity: "Todo")) == before, "a refused move wrote rows")
        do {
            try await controller.moveObject(from: RowPath(section: 7, row: 0), to: RowPath(section: 0, row: 0))
            throw ConformanceFailure("a move from outside the results was accepted")
        } catch let error as FetchKitError where error.code == .invalidValue {}
    }

    func checkMovesByKey(on store: any PersistentStore) async throws {
        let controller = ResultsController(store: store, request: Self.reorderRequests[0])
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        let keys = { (section: String) in
            controller.sections.first { $0.name == section }?.objects.map { $0["id"] ?? .null } ?? []
        }
        // The user sees Errands as [4, 3] and drops Home's todo 6 just above todo 3 (at index 1). Before the
        // controller runs the move, another writer inserts a todo between them: by index, the drop would now
        // land above the new todo.
        try expect(keys("Errands") == [4, 3], "Errands \(keys("Errands"))")
        let inserted = try await store.write { tx in
            try tx.insert(
                ["title": "Buy stamps", "priority": 1, "done": false, "categoryID": 3, "ordering": -5.0], into: "Todo")
        }
        await controller.sync()
        try expect(keys("Errands") == [4, inserted, 3], "Errands after the insert \(keys("Errands"))")
        try await controller.moveObject(withKey: 6, to: .before(3))
        await controller.sync()
        try expect(keys("Errands") == [4, inserted, 6, 3], "after the move by key, Errands \(keys("Errands"))")
        // To the end of a section, and before itself (nothing to do).
        try await controller.moveObject(withKey: 4, to: .endOfSection("Errands"))
        try await controller.moveObject(withKey: 6, to: .before(6))
        await controller.sync()
        try expect(keys("Errands") == [inserted, 6, 3, 4], "after moving 4 to the end, Errands \(keys("Errands"))")
        for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        try recorder.checkCallbackOrder()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)

        for (key, destination, what) in [
            (Value.integer(999), MoveDestination.before(3), "an unknown row"),
            (6, .before(999), "before an unknown row"),
            (6, .endOfSection("Nowhere"), "to an unknown section")
        ] {
            do {
                try await controller.moveObject(withKey: key, to: destination)
                throw ConformanceFailure("a move \(what) was accepted")
            } catch let error as FetchKitError where error.code == .invalidValue {}
        }
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
    }
}
