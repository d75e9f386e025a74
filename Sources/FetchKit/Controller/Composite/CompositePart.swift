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
