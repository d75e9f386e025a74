import FetchKitTesting
import Testing

@testable import FetchKit

/// A composite's row in the tests: its part, its key (a results row's key, a fixed row's text) and its version.
struct CompositeItem: Equatable, CustomStringConvertible {
    var part: Int
    var key: String
    var version = 0

    /// Which rows are the same row, whatever their version.
    var id: String { "\(part)/\(key)" }
    var description: String { id + (version == 0 ? "" : "v\(version)") }
}

/// A results part's shown rows in the tests: the window a `PartContent` carries.
struct DiffWindow: CompositeWindow {
    let snapshot: DiffSnapshot

    func anyObject(at path: RowPath) -> (any Sendable)? {
        guard snapshot.sections.indices.contains(path.section) else { return nil }
        let items = snapshot.sections[path.section].items
        return items.indices.contains(path.row) ? items[path.row] : nil
    }
}

/// A ``CompositeMachine`` driven as ``CompositeResultsController`` drives it — a fixed "Menu" section, then
/// results parts whose changes the diff engine translates — with a delegate's UI that applies every batch it
/// receives through ``ListSimulator``, from what it shows.
struct CompositeWorld {
    typealias List = [(section: String, rows: [CompositeItem])]
    typealias Action = CompositeMachine.Action

    /// What the emission loop does next, while it runs.
    enum Next { case batch, round }

    var machine = CompositeMachine()
    /// What each results part reported last, by part index.
    var reported: [Int: DiffSnapshot] = [:]
    /// What the delegate's UI shows: the fetched composite with every batch applied.
    var shown: List = []
    var batches: [CompositeBatch] = []
    var failures: [FetchKitError] = []
    var logged: [(part: Int, error: FetchKitError)] = []
    /// The emission loop's next event: a batch of the round in progress, or a new round; `nil` when idle.
    var next: Next?
    /// How many batches changed more than one part.
    var mergedBatches = 0
    /// How many rounds ended with changes still pending.
    var heldRounds = 0

    /// A started composite: the menu's rows (part 0), then one results part per snapshot (parts 1…).
    init(menu: [String], parts: [DiffSnapshot], delegate: Bool = true) {
        let fixed = PartContent(names: ["Menu"], counts: [menu.count], window: nil, fixedRows: menu)
        _ = machine.handle(.partAdded(.fixed(fixed)))
        for (offset, part) in parts.enumerated() {
            _ = machine.handle(.partAdded(.results))
            reported[offset + 1] = part
        }
        _ = machine.handle(.delegateChanged(delegate))
        _ = machine.handle(.fetchCompleted(reported.mapValues(Self.content)))
        shown = Self.list(machine.applied)
    }

    /// What the composite shows of a results part reporting `snapshot`.
    static func content(_ snapshot: DiffSnapshot) -> PartContent {
        PartContent(
            names: snapshot.sectionNames, counts: snapshot.sections.map(\.items.count),
            window: DiffWindow(snapshot: snapshot), fixedRows: [])
    }

    /// The sections and rows of `parts`, sections named by part and name.
    static func list(_ parts: [PartContent]) -> List {
        parts.enumerated().flatMap { part, content in
            content.names.indices.map { section in
                let rows =
                    if let window = content.window as? DiffWindow {
                        window.snapshot.sections[section].items.map {
                            CompositeItem(part: part, key: "\($0.key)", version: $0.version)
                        }
                    } else {
                        content.fixedRows.map { CompositeItem(part: part, key: $0) }
                    }
                return (section: "\(part)/\(content.names[section])", rows: rows)
            }
        }
    }

    /// Whether two lists have the same sections and rows.
    static func same(_ a: List, _ b: List) -> Bool {
        a.map(\.section) == b.map(\.section) && a.map(\.rows) == b.map(\.rows)
    }

    /// Part `part` reports `next` for transaction `transactionID`, translated as ``ResultsPartSource`` does: the
    /// diff from what the part reported before, `nil` when empty.
    @discardableResult
    mutating func change(_ part: Int, to next: DiffSnapshot, in transactionID: UInt64?) throws -> [Action] {
        reported[part] = next
        return try handle(
            .partChanged(
                part: part, transactionID: transactionID,
                translate: { last in
                    let window = try #require(last.window as? DiffWindow)
                    let changeset = try DiffCheck.diff(window.snapshot, next, sharedOrder: false)
                    return changeset.isEmpty ? nil : (changeset, Self.content(next))
                }))
    }

    /// Part `part` reports what `generator` makes of what it reported before.
    mutating func change(_ part: Int, in transactionID: UInt64?, using generator: inout DiffPairGenerator) throws {
        try change(part, to: generator.unorderedSuccessor(of: try #require(reported[part])), in: transactionID)
    }

    /// Tells the machine `event` and plays its actions as the controller does.
    @discardableResult
    mutating func handle(_ event: CompositeMachine.Event) throws -> [Action] {
        let actions = machine.handle(event)
        switch event {
        case .roundSynced, .batchDelivered: next = nil
        default: break
        }
        for action in actions {
            switch action {
            case .notifyDelegate(let update, let before, let after): try deliver(update, from: before, to: after)
            case .continueRound: next = .batch
            case .syncRound:
                next = .round
                heldRounds += 1
            case .logError(let part, let error): logged.append((part, error))
            case .reportFailure(let error): failures.append(error)
            case .addPart, .refusePart, .signalEmission: break
            }
        }
        return actions
    }

    /// One step of the emission loop: the round's next batch, else a round through `through`.
    mutating func emissionStep(through: UInt64) throws {
        try handle(next == .batch ? .batchDelivered : .roundSynced(through: through))
    }

    /// Runs an emission (``CompositeResultsController/emitPending()``) until it is idle: round `n` is through
    /// `rounds[n]`, the last one repeated. Returns the batches it delivered.
    @discardableResult
    mutating func emit(rounds: [UInt64]) throws -> [CompositeBatch] {
        let start = batches.count
        var round = 0
        try handle(.roundSynced(through: rounds[0]))
        while let next {
            if next == .round { round += 1 }
            try emissionStep(through: rounds[min(round, rounds.count - 1)])
            try #require(round < 100, "the emission does not end")
        }
        return Array(batches[start...])
    }

    /// The delegate applies a batch to what it shows: it must start from there and lead to `after`.
    private mutating func deliver(_ update: CompositeBatch, from before: [PartContent], to after: [PartContent]) throws
    {
        #expect(Self.same(Self.list(before), shown), "a batch starts from what the delegate shows")
        #expect(update.sectionNamesBefore == before.flatMap(\.names))
        #expect(update.sectionNamesAfter == after.flatMap(\.names))
        shown = try ListSimulator.apply(update.changeset, to: shown, expecting: Self.list(after), identifiedBy: \.id)
        batches.append(update)
        if zip(before, after).filter({ !Self.same(Self.list([$0]), Self.list([$1])) }).count > 1 { mergedBatches += 1 }
    }
}

extension CompositeMachine.Action {
    /// A short name for expectations: `notify(7)`, `logError(1)`, `reportFailure(inconsistency)`…
    var name: String {
        switch self {
        case .addPart(let index): "addPart(\(index))"
        case .refusePart: "refusePart"
        case .signalEmission: "signalEmission"
        case .notifyDelegate(let update, _, _): "notify(\(update.transactionID.map(String.init) ?? "nil"))"
        case .continueRound: "continueRound"
        case .syncRound: "syncRound"
        case .logError(let part, _): "logError(\(part))"
        case .reportFailure(let error): "reportFailure(\(error.code))"
        }
    }
}
