/// A part of a ``CompositeResultsController`` showing a results controller's objects: pass it to
/// ``CompositeResultsController/object(at:in:)`` to read them type-safely.
public struct ResultsPart<Object: Sendable>: Sendable, Hashable {
    /// The part's position among the composite's parts.
    public let index: Int
}

/// A part of a ``CompositeResultsController`` with fixed rows (a menu, a header row).
public struct FixedPart: Sendable, Hashable {
    /// The part's position among the composite's parts.
    public let index: Int
}

/// One section of a composite controller.
public struct CompositeSection: Sendable, Hashable {
    /// The section's name.
    public let name: String
    /// How many rows it shows.
    public let count: Int
    /// The index of the part it belongs to.
    public let part: Int
}

/// A part's content as the composite shows it: its sections, each capped, with their rows and objects.
struct PartContent: Sendable {
    /// Section names and, per section, the shown rows' identities (part index and primary key).
    var names: [String]
    var counts: [Int]
    /// The shown results (`ResultsSnapshot<Object>` of the part's object type), `nil` for a fixed part.
    var window: (any CompositeWindow)?
    /// A fixed part's rows.
    var fixedRows: [String]
}

extension PartContent {
    /// The row at `path` (in the part's own sections) of part `part`, or `nil` when out of range.
    func row(at path: RowPath, part: Int) -> CompositeRow? {
        if let window {
            return window.anyObject(at: path).map { CompositeRow(part: part, value: $0) }
        }
        return fixedRows.indices.contains(path.row) ? CompositeRow(part: part, value: fixedRows[path.row]) : nil
    }
}

/// A results part's shown snapshot, whatever its object type.
protocol CompositeWindow: Sendable {
    /// The object at `path`, or `nil` when out of range.
    func anyObject(at path: RowPath) -> (any Sendable)?
}

extension ResultsSnapshot: CompositeWindow {
    func anyObject(at path: RowPath) -> (any Sendable)? { object(at: path) }
}

/// A results part's link to its controller: it is the controller's delegate, and turns each batch into the
/// change of what the composite shows (capped sections), diffing from the last shown content.
final class ResultsPartSource<Object: Sendable>: ResultsControllerDelegate, Sendable {
    let controller: ResultsController<Object>
    let limit: Int?
    let index: Int
    /// Reports a part change to the composite, which owns the lock over every part's state.
    let report: @Sendable (Int, UInt64?, _ make: (PartContent) throws -> (Changeset, PartContent)?) -> Void
    /// Reports the part's permanent failure to the composite.
    let reportFailure: @Sendable (FetchKitError) -> Void

    init(controller: ResultsController<Object>, limit: Int?, index: Int,
         report: @escaping @Sendable (Int, UInt64?, (PartContent) throws -> (Changeset, PartContent)?) -> Void,
         reportFailure: @escaping @Sendable (FetchKitError) -> Void) {
        self.controller = controller
        self.reportFailure = reportFailure
        self.limit = limit
        self.index = index
        self.report = report
    }

    /// What the composite shows of `snapshot`: each section cut to `limit` rows.
    func content(of snapshot: ResultsSnapshot<Object>) -> PartContent {
        let window: ResultsSnapshot<Object>
        if let limit {
            let cut = snapshot.sectionEntries.map { (name: $0.name, entries: Array($0.entries.prefix(limit))) }
            window = ResultsSnapshot(sections: cut, primaryKey: snapshot.primaryKey, order: nil)
        } else {
            window = snapshot
        }
        return PartContent(names: window.sectionNames, counts: window.sectionCounts, window: window, fixedRows: [])
    }

    func controller(_ controller: ResultsController<Object>, didApply update: ResultsUpdate<Object>) {
        let next = content(of: update.snapshot)
        report(index, update.transactionID) { last in
            guard let shown = last.window as? ResultsSnapshot<Object>,
                  let nextWindow = next.window as? ResultsSnapshot<Object> else { return nil }
            let changeset = try ResultsDiff.changeset(from: shown, to: nextWindow)
            return changeset.isEmpty ? nil : (changeset, next)
        }
    }

    func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError) {
        reportFailure(error)
    }
}
