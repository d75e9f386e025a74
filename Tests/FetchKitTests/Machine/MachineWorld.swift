import FetchKitTesting

@testable import FetchKit

/// A small world around one ``ControllerMachine``: a database of rows, the controller's queue of commands, a
/// writer, and a delegate whose UI runs on its own actor and lets a user drag rows. Each ``Step`` is one thing
/// that can happen next; ``enabledSteps`` lists them, so a test can try every order.
///
/// The world plays the controller's loop as ``ResultsController`` does: a command runs at a time; a batch for
/// the delegate is published, then delivered on the actor, and the controller waits for that delivery before
/// its next command; the user's drag happens on the actor between two deliveries. The UI applies each batch it
/// receives through ``ListSimulator`` and moves a dragged row itself.
struct MachineWorld {
    typealias Machine = ControllerMachine<Row>

    /// A row of the database: sorted by section, then order, then id.
    struct Item: Equatable, Sendable {
        var id: Int64
        var section: String
        var order: Double
        var title: String
    }

    /// What the UI shows of a row (a cell): which row, and its title.
    struct Cell: Equatable, Sendable {
        var id: Int64
        var title: String
    }

    /// A writer's transaction.
    enum Write: Sendable {
        case insert(Item)
        case delete(Int64)
        case rename(Int64, String)
    }

    /// A user's drag: row `key` dropped just above row `before`, or at the end of section `end`.
    struct Drag: Sendable {
        var key: Int64
        var destination: MoveDestination
    }

    /// The view of the results that made a move.
    enum View: Sendable {
        case delegate
        case reader
    }

    /// The controller's work, one at a time.
    enum Command: Sendable {
        /// A committed transaction reached the controller; reading it fails transiently when `fails`.
        case routed(fails: Bool)
        /// Write a view's move.
        case moveWrite(View, id: Int, key: Int64, destination: MoveDestination)
        /// The move is written: forget it in the view that made it, then bring every view back to the results.
        case moveSettle(View, id: Int)
        case reconcile
        /// A stale controller's retry.
        case retry
    }

    /// Something that can happen next.
    enum Step: Hashable, CustomStringConvertible {
        case commit(failingRead: Bool)
        case runCommand
        case deliver
        case drag
        case retryTimer
        /// The update sequence's reader asks for its next element.
        case read
        /// The reader's UI moves a row itself.
        case readerDrag

        var description: String {
            switch self {
            case .commit(let failing): failing ? "commit(read fails)" : "commit"
            case .runCommand: "run"
            case .deliver: "deliver"
            case .drag: "drag"
            case .retryTimer: "timer"
            case .read: "read"
            case .readerDrag: "reader drag"
            }
        }
    }

    var machine = Machine()
    var database: [Int64: Item]
    var writes: [Write]
    var drags: [Drag]
    var failuresLeft: Int
    var queue: [Command] = []
    /// The batch published for the delegate, not delivered yet: the controller waits for it.
    var inFlight: ResultsBatch<Row>?
    /// What the UI shows.
    var ui: [(section: String, cells: [Cell])] = []
    /// Rows the user dragged.
    var dragged: Set<Int64> = []
    /// Batches that moved, inserted or deleted a dragged row.
    var bounces: [(key: Int64, batch: String)] = []
    /// Dragged rows whose move could not be written (its section or neighbour was gone by then): they come
    /// back, rightly, and so may a row dropped just above one of them.
    var failedMoves: Set<Int64> = []
    var retryScheduled = false
    var now: ContinuousClock.Instant
    var trace: [Step] = []
    /// An update sequence's reader (``ReaderMachine``), with what its UI shows and the drags it will make.
    var reader: ReaderMachine<Row>?
    var readerUI: [(section: String, cells: [Cell])] = []
    var readerDrags: [Drag] = []
    var readerDragged: Set<Int64> = []
    /// The scenario: every write and drag, in order.
    let allWrites: [Write]
    let allDrags: [Drag]
    let allReaderDrags: [Drag]
    /// Dragged rows whose drop went above a row a writer deleted: they may come back.
    var deletedNeighbours: Set<Int64> = []
    private var nextMoveID = 0

    /// A world with a delegate that makes `drags` and, when `readerDrags` is given, an update sequence's reader
    /// (coalescing past `readerLimit` waiting batches) that makes those.
    init(
        rows: [Item], writes: [Write], drags: [Drag], failures: Int, readerDrags: [Drag]? = nil,
        readerLimit: Int = 2, now: ContinuousClock.Instant
    ) {
        database = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        self.writes = writes
        self.drags = drags
        allWrites = writes
        allDrags = drags
        allReaderDrags = readerDrags ?? []
        self.readerDrags = readerDrags ?? []
        failuresLeft = failures
        self.now = now
        // The first fetch, with the delegate attached, as `performFetch()` then `setDelegate` leave it.
        _ = machine.handle(.fetchStarted, at: now)
        _ = machine.handle(.published(.init(snapshot: fetch(), previous: .init(), hasChanges: false)), at: now)
        _ = machine.handle(.fetchSucceeded, at: now)
        _ = machine.handle(.delegateChanged(true), at: now)
        ui = Self.cells(of: machine.results)
        if readerDrags != nil {
            // Its first element is the current results.
            var reader = ReaderMachine<Row>(limit: readerLimit)
            let results = machine.results
            _ = reader.push(ResultsBatch(previous: results, snapshot: results, changeset: nil, transactionID: nil))
            self.reader = reader
        }
    }

    // MARK: The database

    /// The results of the request, fetched now.
    func fetch() -> ResultsSnapshot<Row> {
        let items = database.values.sorted { ($0.section, $0.order, $0.id) < ($1.section, $1.order, $1.id) }
        let rows = items.map(Self.row)
        return ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: "section", order: nil)
    }

    static func row(_ item: Item) -> Row {
        [
            "id": .integer(item.id), "section": .text(item.section), "position": .double(item.order),
            "title": .text(item.title)
        ]
    }

    static func item(_ row: Row) -> Item {
        guard case .integer(let id) = row["id"], case .text(let section) = row["section"],
            case .double(let order) = row["position"], case .text(let title) = row["title"]
        else { preconditionFailure("not a row of the world: \(row)") }
        return Item(id: id, section: section, order: order, title: title)
    }

    /// What a UI in step with `results` shows.
    static func cells(of results: ResultsSnapshot<Row>) -> [(section: String, cells: [Cell])] {
        results.sections.map { section in
            (section.name, section.objects.map { Cell(id: item($0).id, title: item($0).title) })
        }
    }

    // MARK: Moves

    /// `base` with `key` moved to `destination`, taking its new section and the midpoint of its new
    /// neighbours' order values (as a fractional order attribute does); `nil` when a row is missing.
    static func place(_ base: ResultsSnapshot<Row>, key: Int64, destination: MoveDestination)
        -> ResultsSnapshot<Row>?
    {
        var sections = base.sections.map { (name: $0.name, items: $0.objects.map(item)) }
        guard let from = sections.firstIndex(where: { $0.items.contains { $0.id == key } }) else { return nil }
        var moved = sections[from].items.first { $0.id == key }!
        sections[from].items.removeAll { $0.id == key }
        let section: Int
        let position: Int
        switch destination {
        case .before(.integer(let next)):
            guard next != key, let found = sections.firstIndex(where: { $0.items.contains { $0.id == next } })
            else { return nil }
            section = found
            position = sections[found].items.firstIndex { $0.id == next }!
        case .endOfSection(let name):
            guard let found = sections.firstIndex(where: { $0.name == name }) else { return nil }
            section = found
            position = sections[found].items.count
        case .before: return nil
        }
        let items = sections[section].items
        let before = position > 0 ? items[position - 1].order : nil
        let after = position < items.count ? items[position].order : nil
        moved.order =
            switch (before, after) {
            case (let b?, let a?): (a + b) / 2
            case (let b?, nil): b + 1
            case (nil, let a?): a - 1
            case (nil, nil): 0
            }
        moved.section = sections[section].name
        sections[section].items.insert(moved, at: position)
        let named = sections.map { section in
            (name: section.name, entries: section.items.map { (row: row($0), object: row($0)) })
        }
        return ResultsSnapshot(sections: named, primaryKey: "id", order: nil)
    }

    /// A view's waiting moves made again on `results`, as the controller does: each by
    /// ``place(_:key:destination:)``; a move to the end of a section the results lost but the view shows keeps
    /// that section; a move that no longer applies leaves its row where the results have it.
    static func replay(
        _ results: ResultsSnapshot<Row>, _ moves: PendingMoves, _ view: ResultsSnapshot<Row>?
    ) -> MovedResults<Row> {
        var unplaced: Set<Value> = []
        let moved = moves.applied(to: results) { base, move in
            var base = base
            if case .endOfSection(let name) = move.destination, base.sectionNames.sectionIndex(of: name) == nil,
                let view, let shown = view.sectionNames.sectionIndex(of: name)
            {
                let before = view.sectionNames[..<shown].reversed().compactMap {
                    base.sectionNames.sectionIndex(of: $0)
                }
                base = base.insertingEmptySection(name, at: before.first.map { $0 + 1 } ?? 0)
            }
            guard case .integer(let key) = move.key, let placed = place(base, key: key, destination: move.destination)
            else {
                unplaced.insert(move.key)
                return nil
            }
            unplaced.remove(move.key)
            return placed
        }
        return MovedResults(snapshot: moved, unplaced: unplaced)
    }
}
