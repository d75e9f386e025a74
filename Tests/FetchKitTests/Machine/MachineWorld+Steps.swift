import FetchKitTesting

@testable import FetchKit

/// A step of the world went against the controller's contract.
struct WorldViolation: Error, CustomStringConvertible {
    var description: String
}

extension MachineWorld {
    /// What can happen next.
    var enabledSteps: [Step] {
        var steps: [Step] = []
        if !writes.isEmpty {
            steps.append(.commit(failingRead: false))
            if failuresLeft > 0 { steps.append(.commit(failingRead: true)) }
        }
        // The controller waits for the delegate's delivery before its next command.
        if inFlight == nil, !queue.isEmpty { steps.append(.runCommand) }
        if inFlight != nil { steps.append(.deliver) }
        if !drags.isEmpty { steps.append(.drag) }
        if retryScheduled { steps.append(.retryTimer) }
        if let reader {
            if !reader.pending.isEmpty || reader.coalesced != nil { steps.append(.read) }
            if !readerDrags.isEmpty, reader.shown != nil { steps.append(.readerDrag) }
        }
        return steps
    }

    /// Takes `step`.
    ///
    /// - Throws: ``WorldViolation`` when the controller breaks its contract: a batch that does not apply to what
    ///   the UI shows, a batch that cannot be built, a controller that stopped.
    mutating func take(_ step: Step) throws {
        trace.append(step)
        now += .milliseconds(1)
        switch step {
        case .commit(let failingRead):
            commit(writes.removeFirst())
            if failingRead { failuresLeft -= 1 }
            queue.append(.routed(fails: failingRead))
        case .runCommand:
            try run(queue.removeFirst())
        case .deliver:
            try deliver()
        case .drag:
            try drag(drags.removeFirst())
        case .read:
            try read()
        case .readerDrag:
            try readerDrag(readerDrags.removeFirst())
        case .retryTimer:
            retryScheduled = false
            // The timer fires once the delay is over.
            if let due = machine.retryAt { now = max(now, due) }
            queue.append(.retry)
        }
    }

    /// The checks once nothing more can happen: the UI equals the results, which equal a fresh fetch; the
    /// delegate is in step with no move waiting; nothing bounced.
    func checkSettled() throws {
        let fresh = Self.cells(of: fetch())
        guard Self.same(Self.cells(of: machine.results), fresh) else {
            throw violation("the results differ from a fresh fetch: \(Self.cells(of: machine.results)) ≠ \(fresh)")
        }
        guard Self.same(ui, fresh) else { throw violation("the UI differs from a fresh fetch: \(ui) ≠ \(fresh)") }
        guard machine.delegateShown == nil, machine.delegateMoves.isEmpty else {
            throw violation("the delegate is not back in step with the results")
        }
        guard machine.status == .live, machine.heldSyncs == 0 else {
            throw violation("the controller is \(machine.status), holding \(machine.heldSyncs) sync() calls")
        }
        let exempt = droppedAbove(failedMoves)
        let bounced = bounces.filter { !exempt.contains($0.key) }
        guard bounced.isEmpty else { throw violation("a dragged row bounced: \(bounced.map(\.batch))") }
        if let reader {
            guard Self.same(readerUI, fresh), reader.moves.isEmpty else {
                throw violation("the reader's UI differs from a fresh fetch: \(readerUI) ≠ \(fresh)")
            }
        }
    }

    /// `keys` and the rows dropped just above one of them, and just above those, and so on.
    func droppedAbove(_ keys: Set<Int64>) -> Set<Int64> {
        var found = keys
        while true {
            let next = found.union(
                (allDrags + allReaderDrags).filter { drag in
                    found.contains { drag.destination == .before(.integer($0)) }
                }.map(\.key))
            if next == found { return found }
            found = next
        }
    }

    func violation(_ message: String) -> WorldViolation {
        WorldViolation(
            description:
                "\(message)\n  drags: \(allDrags)\n  reader drags: \(allReaderDrags)\n  writes: \(allWrites)\n  after: "
                + trace.map(\.description).joined(separator: ", "))
    }

    static func same(_ lhs: [(section: String, cells: [Cell])], _ rhs: [(section: String, cells: [Cell])]) -> Bool {
        lhs.map(\.section) == rhs.map(\.section) && lhs.map(\.cells) == rhs.map(\.cells)
    }

    // MARK: Steps

    private mutating func commit(_ write: Write) {
        switch write {
        case .insert(let item): database[item.id] = item
        case .delete(let id):
            database[id] = nil
            // A drop just above this row no longer applies: its row comes back, rightly — and so does a row
            // dropped just above that one.
            var lost = droppedAbove([id])
            lost.remove(id)
            dragged.subtract(lost)
            readerDragged.subtract(lost)
            deletedNeighbours.formUnion(lost)
        case .rename(let id, let title): database[id]?.title = title
        }
    }

    private mutating func run(_ command: Command) throws {
        switch command {
        case .routed(let fails):
            // A stale controller's retry refetches everything, a failed one applies nothing.
            guard !machine.isStale, !machine.hasFailed else { return }
            if fails {
                try expectNoStop(
                    machine.handle(.readFailed(FetchKitError(.connectionLost, message: "injected")), at: now))
                return
            }
            try publish(fetch(), previous: machine.results, transactionID: nil)
        case .moveWrite(let view, let id, let key, let destination):
            // Planned again inside the write, by identity, on the rows as the database has them, as the
            // controller does.
            guard let shown = Self.place(fetch(), key: key, destination: destination) else {
                failedMoves.insert(key)
                // The move no longer applies: nothing is written, the delegate gets the row back.
                queue.insert(contentsOf: [.moveSettle(view, id: id), .reconcile], at: 0)
                return
            }
            let written = Self.item(shown.entries.rows.first { $0["id"] == .integer(key) }!)
            database[key] = written
            try publish(fetch(), previous: shown, transactionID: nil)
            queue.insert(contentsOf: [.moveSettle(view, id: id), .reconcile], at: 0)
            // The store notifies the move's own transaction too.
            queue.append(.routed(fails: false))
        case .moveSettle(.delegate, let id):
            _ = machine.handle(.moveSettled(id: id), at: now)
        case .moveSettle(.reader, let id):
            reader?.settleMove(id)
        case .reconcile:
            let current = machine.results
            try publish(current, previous: current, transactionID: nil, reconcile: true)
        case .retry:
            let actions = machine.handle(.retryDue, at: now)
            if actions.contains(where: { if case .refetch = $0 { true } else { false } }) {
                try publish(fetch(), previous: machine.results, transactionID: nil)
                try expectNoStop(machine.handle(.caughtUp, at: now))
            } else if machine.isStale {
                retryScheduled = true
            }
        }
    }

    private mutating func publish(
        _ snapshot: ResultsSnapshot<Row>, previous: ResultsSnapshot<Row>, transactionID: UInt64?,
        reconcile: Bool = false
    ) throws {
        let changeset = try ResultsDiff.changeset(from: previous, to: snapshot)
        let publication = Machine.Publication(
            snapshot: snapshot, previous: previous, hasChanges: !changeset.isEmpty, transactionID: transactionID,
            reconcile: reconcile)
        for case .publish(let covering, let toDelegate) in machine.handle(.published(publication), at: now) {
            let update = ResultsBatch(
                previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID,
                transactions: covering)
            if toDelegate { inFlight = update }
            // The update sequences get every batch, and the reconciling one.
            if !changeset.isEmpty || reconcile { _ = reader?.push(update) }
        }
    }

    private mutating func expectNoStop(_ actions: [Machine.Action]) throws {
        for action in actions {
            switch action {
            case .stop(let error): throw violation("the controller stopped: \(error)")
            case .scheduleRetry: retryScheduled = true
            default: break
            }
        }
    }

    /// The delivery runs on the delegate's actor: the UI applies what it receives.
    private mutating func deliver() throws {
        guard let update = inFlight else { return }
        inFlight = nil
        let actions = machine.handle(.delegateDelivery(update, replay: Self.replay), at: now)
        try expectNoStop(actions)
        for case .notifyDelegate(let batch) in actions { try apply(batch) }
    }

    /// Applies `batch` to the UI as a table view would, and records a bounce when it moves, inserts or deletes
    /// a dragged row.
    private mutating func apply(_ batch: ResultsBatch<Row>) throws {
        guard let changeset = batch.changeset else { return }
        ui = try applying(changeset, leadingTo: batch.snapshot, to: ui, in: "the UI")
        for id in touchedKeys(batch, changeset) where dragged.contains(id) {
            bounces.append((id, "row \(id) in \(changeset)"))
        }
    }

    /// `ui` with `changeset` applied as a table view would, checked to lead to `results`.
    private func applying(
        _ changeset: Changeset, leadingTo results: ResultsSnapshot<Row>, to ui: [(section: String, cells: [Cell])],
        in view: String
    ) throws -> [(section: String, cells: [Cell])] {
        do {
            let old = ui.map { (section: $0.section, rows: $0.cells) }
            let new = Self.cells(of: results).map { (section: $0.section, rows: $0.cells) }
            return try ListSimulator.apply(changeset, to: old, expecting: new, identifiedBy: \.id).map {
                (section: $0.section, cells: $0.rows)
            }
        } catch {
            throw violation(
                "a batch does not apply to what \(view) shows: \(error)\n  UI: \(ui)\n  batch: \(changeset)")
        }
    }

    /// The rows `batch` moves, inserts or deletes.
    private func touchedKeys(_ batch: ResultsBatch<Row>, _ changeset: Changeset) -> [Int64] {
        func key(_ snapshot: ResultsSnapshot<Row>, _ path: RowPath) -> Int64 {
            Self.item(snapshot.object(at: path)!).id
        }
        var touched = changeset.rowMoves.map { key(batch.previous, $0.from) }
        touched += changeset.rowDeletes.map { key(batch.previous, $0) }
        touched += changeset.rowInserts.map { key(batch.snapshot, $0) }
        for section in changeset.sectionDeletes {
            touched += batch.previous.sections[section].objects.map { Self.item($0).id }
        }
        for section in changeset.sectionInserts {
            touched += batch.snapshot.sections[section].objects.map { Self.item($0).id }
        }
        return touched
    }

    /// The user drops a row on the actor: the UI shows it moved at once, and the controller is told.
    private mutating func drag(_ drag: Drag) throws {
        let base = machine.delegateView
        guard Self.same(ui, Self.cells(of: base)) else {
            throw violation("the delegate's view is not what the UI shows: \(Self.cells(of: base)) ≠ \(ui)")
        }
        guard let shown = Self.place(base, key: drag.key, destination: drag.destination) else { return }
        let actions = machine.handle(
            .userMoved(base: base, shown: shown, key: .integer(drag.key), destination: drag.destination), at: now)
        guard case .writeMove(let id, _, _)? = actions.first, actions.count == 1 else {
            throw violation("a drop on the delegate's own view was not taken: \(actions)")
        }
        ui = Self.cells(of: shown)
        if !deletedNeighbours.contains(drag.key) { dragged.insert(drag.key) }
        queue.append(.moveWrite(.delegate, id: id, key: drag.key, destination: drag.destination))
    }

    // MARK: The update sequence's reader

    /// The reader asks for its next element and applies it to its UI, as `for try await` does.
    private mutating func read() throws {
        guard var reader else { return }
        let next = reader.next()
        self.reader = reader
        guard case .element(let update, let base, let moves) = next else { return }
        guard let base, update.changeset != nil else {
            readerUI = Self.cells(of: update.snapshot)
            return
        }
        let moved = Self.replay(update.snapshot, moves, base)
        self.reader?.showing(moved.snapshot, for: update.snapshot)
        let batch: ResultsBatch<Row>?
        do {
            batch = try update.rebased(from: base, to: moved.snapshot, movingFirst: moved.unplaced)
        } catch {
            throw violation("a batch for the reader could not be built: \(error)")
        }
        guard let batch, let changeset = batch.changeset else { return }
        readerUI = try applying(changeset, leadingTo: batch.snapshot, to: readerUI, in: "the reader's UI")
        for id in touchedKeys(batch, changeset) where readerDragged.contains(id) {
            bounces.append((id, "reader: row \(id) in \(changeset)"))
        }
    }

    /// The reader's UI drops a row (`userMovedRow` on the sequence): it shows the move at once.
    private mutating func readerDrag(_ drag: Drag) throws {
        guard var reader else { return }
        var shown: ResultsSnapshot<Row>?
        let (installed, _) = try reader.applyMove(alreadyShown: true) { base in
            guard Self.same(readerUI, Self.cells(of: base)) else {
                throw violation("the reader's view is not what its UI shows: \(Self.cells(of: base)) ≠ \(readerUI)")
            }
            guard let moved = Self.place(base, key: drag.key, destination: drag.destination) else { return nil }
            shown = moved
            return (moved, .integer(drag.key), drag.destination)
        }
        self.reader = reader
        guard let (id, _, _) = installed, let shown else { return }
        readerUI = Self.cells(of: shown)
        if !deletedNeighbours.contains(drag.key) { readerDragged.insert(drag.key) }
        queue.append(.moveWrite(.reader, id: id, key: drag.key, destination: drag.destination))
    }
}
