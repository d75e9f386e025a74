import FetchKit

@testable import FetchKitTesting

/// An update sequence's reader whose UI drags rows itself, on its own actor: it reads `controller.updates()` on
/// its isolation (so a drop falls between two elements, never inside one), applies each batch to the list it
/// shows (sections of primary keys) as a table view would (``ListSimulator``), and drops rows with
/// ``ResultsStream/userMovedRow(withKey:to:)`` in the same turn as its UI moves them.
///
/// It records every batch that does not start from what it shows or does not apply to it, and every batch that
/// moved, inserted or deleted a row whose drop was waiting to be written and then was written: the user saw that
/// row bounce. (A drop whose write failed gets its row back, rightly.)
actor DraggingReader {
    typealias Shown = [(section: String, rows: [Value])]

    let stream: ResultsStream<Row>
    private(set) var shown: Shown = []
    /// The batches received after the first element (the results).
    private(set) var batches = 0
    private(set) var failures: [String] = []
    private(set) var bounces: [String] = []
    /// The last store transaction a batch received named (in ``ResultsBatch/transactions``).
    private(set) var throughTransaction: UInt64 = 0
    /// The rows whose drop is not written yet, with the number of batches the reader had at the drop.
    private var inFlight: [Value: Int] = [:]
    /// The batches that moved, inserted or deleted a row in flight.
    private var touches: [Value: [String]] = [:]
    private var reading: Task<(any Error)?, Never>?
    private var hasResults = false
    private var hasEnded = false
    private var startWaiters: [CheckedContinuation<Void, Never>] = []

    /// A reader of `controller`'s updates; more than `bufferingLimit` batches waiting collapse into one.
    init(_ controller: ResultsController<Row>, bufferingLimit: Int) {
        stream = controller.updates(bufferingLimit: bufferingLimit)
    }

    /// Starts reading; returns once the reader shows the first element (the results), or the sequence ended.
    func start() async {
        reading = Task { await self.read() }
        guard !hasResults, !hasEnded else { return }
        await withCheckedContinuation { startWaiters.append($0) }
    }

    /// Waits for the sequence to end, and returns the error it ended with (`nil`: it ended normally).
    func ending() async -> (any Error)? {
        await reading?.value
    }

    /// Stops reading (as a UI that goes away cancels its loop), and waits until it has.
    func stop() async {
        reading?.cancel()
        _ = await reading?.value
    }

    /// Whether the reader shows the row `key`.
    func shows(_ key: Value) -> Bool {
        shown.contains { $0.rows.contains(key) }
    }

    /// The user drops row `key` at `destination`: the reader's UI shows it there at once, and the controller is
    /// told in the same turn (`Task.immediate` runs up to the move's first suspension before returning).
    ///
    /// - Returns: the move's task, which ends when the move is written (it throws when the write failed) and
    ///   the reader has finished with the element that shows its outcome.
    func drop(key: Value, destination: MoveDestination) -> Task<Void, any Error> {
        guard moveShown(key, to: destination) else {
            failures.append("the reader cannot drop row \(key) at \(destination): it shows \(shown)")
            return Task {}
        }
        inFlight[key] = batches
        let stream = stream
        return Task.immediate { [self] in
            do {
                try await stream.userMovedRow(withKey: key, to: destination)
            } catch {
                settle(key, written: false)
                throw error
            }
            settle(key, written: true)
        }
    }

    /// Reads the sequence on this actor until it ends, normally or by throwing.
    private func read() async -> (any Error)? {
        var iterator = stream.makeAsyncIterator()
        defer {
            hasEnded = true
            resumeStartWaiters()
        }
        do {
            while let update = try await iterator.next(isolation: self) { receive(update) }
            return nil
        } catch {
            return error
        }
    }

    /// The first element: the results; any later one: a batch, applied to what the reader shows.
    private func receive(_ update: ResultsBatch<Row>) {
        if let last = update.transactions?.upperBound ?? update.transactionID {
            throughTransaction = max(throughTransaction, last)
        }
        guard let changeset = update.changeset else {
            shown = Self.shown(update.snapshot)
            hasResults = true
            resumeStartWaiters()
            return
        }
        batches += 1
        let (before, after) = (Self.shown(update.previous), Self.shown(update.snapshot))
        if !Self.same(before, shown) {
            failures.append("batch \(batches) starts from \(before), the reader shows \(shown)")
        }
        for key in StoreConformance.TableUI.structurallyChanged(changeset, update) where inFlight[key] != nil {
            touches[key, default: []].append("batch \(batches): \(changeset), \(before) -> \(after)")
        }
        do {
            try ResultsOracle.check(update, primaryKey: "id")
            shown = try ListSimulator.apply(changeset, to: shown, expecting: after)
        } catch {
            failures.append("batch \(batches): \(error)")
            // Follow the results, so that later batches are judged on their own.
            shown = after
        }
    }

    /// The drop of `key` is done: when it was written, no batch since the drop may have touched the row.
    private func settle(_ key: Value, written: Bool) {
        if written, let seen = touches[key], !seen.isEmpty {
            bounces.append("row \(key), dropped after batch \(inFlight[key] ?? -1), touched by \(seen)")
        }
        inFlight[key] = nil
        touches[key] = nil
    }

    /// Moves `key` in what the reader shows: just above row `next`, or to the end of a section; `false` when a
    /// row or the section is not there.
    private func moveShown(_ key: Value, to destination: MoveDestination) -> Bool {
        guard let from = shown.firstIndex(where: { $0.rows.contains(key) }) else { return false }
        var moved = shown
        moved[from].rows.removeAll { $0 == key }
        switch destination {
        case .before(let next):
            guard next != key, let section = moved.firstIndex(where: { $0.rows.contains(next) }),
                let row = moved[section].rows.firstIndex(of: next)
            else { return false }
            moved[section].rows.insert(key, at: row)
        case .endOfSection(let name):
            guard let section = moved.firstIndex(where: { $0.section == name }) else { return false }
            moved[section].rows.append(key)
        }
        shown = moved
        return true
    }

    private func resumeStartWaiters() {
        let waiters = startWaiters
        startWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// What a reader in step with `snapshot` shows.
    static func shown(_ snapshot: ResultsSnapshot<Row>) -> Shown { StoreConformance.TableUI.shown(snapshot) }

    static func same(_ lhs: Shown, _ rhs: Shown) -> Bool {
        lhs.map(\.section) == rhs.map(\.section) && lhs.map(\.rows) == rhs.map(\.rows)
    }
}
