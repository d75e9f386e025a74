import FetchKit

/// A model of UITableView's batch updates: applies a ``Changeset`` to an old snapshot as UIKit would, throws what
/// UIKit would throw (and what FetchKit's batch contract forbids), and checks that the result is the new snapshot.
///
/// The rules are UIKit's: deletes, updates ("reloads") and move sources use old paths; inserts and move
/// destinations use new paths; deletions are handled before insertions, whatever the order. On top of them,
/// FetchKit's contract adds:
/// - `sectionCountsBefore` and `sectionCountsAfter` are the row counts of the two snapshots;
/// - `sectionDeletes`, `sectionInserts`, `rowDeletes` and `rowInserts` are ascending;
/// - no no-op move: a move without which the row (or section) would land at the same place anyway;
/// - no row operation inside a section the same batch deletes or inserts, and no row insert or move
///   destination inside a moved section (IGListKit's warning: heap corruption, cells animated twice);
/// - a row that moves is never also updated (a changed row that moves is one move with `isUpdated`);
/// - an update's `to` is where the row at its `from` ends up (a cell is found by the old path, its object read
///   at the new one).
///
/// Updated rows (updates and moves with `isUpdated`) are re-read from the new snapshot, as a reloaded cell is, so
/// rows may carry their content: a changed row the batch forgets to update makes the result differ.
/// `applyStaged` checks a ``StagedChangeset`` the same way, stage by stage.
///
/// ```swift
/// let batch = Changeset(
///     rowDeletes: [RowPath(section: 0, row: 0)], sectionCountsBefore: [2], sectionCountsAfter: [1])
/// let rows = try ListSimulator.apply(batch, to: [["a", "b"]], expecting: [["b"]])   // [["b"]]
/// ```
public struct ListSimulator: Sendable {
    /// Applies `changeset` to `old` (sections of row identifiers, with section identifiers) as UITableView would,
    /// taking inserted sections and rows from `new`, and returns the result, which equals `new`.
    ///
    /// An update (or a move with `isUpdated`) must pair equal rows: the row at its old path is the row at its new
    /// path. For rows that carry content, use ``apply(_:to:expecting:identifiedBy:)`` instead.
    ///
    /// - Throws: ``Violation`` for anything UITableView would reject or FetchKit's batch contract forbids;
    ///   ``Violation/resultMismatch(_:)``, showing the first difference, when the batch applies but does not give
    ///   `new` (sections are compared by identifier, rows by `==`).
    /// - Complexity: O(*n* + *c* log *c*) for *n* rows and sections and *c* changes.
    public static func apply<Section: Equatable, Row: Equatable>(
        _ changeset: Changeset,
        to old: [(section: Section, rows: [Row])],
        expecting new: [(section: Section, rows: [Row])]
    ) throws -> [(section: Section, rows: [Row])] {
        try applyChecked(changeset, to: old, expecting: new, named: true) { $0 }
    }

    /// Applies `changeset` to `old` (sections of rows that carry content) as UITableView would, and returns the
    /// result, which equals `new`.
    ///
    /// `id` says which old and new rows are the same row: an update, or a move with `isUpdated`, must pair rows
    /// with equal identifiers, and the updated row is re-read from `new`. A row whose content changed but that the
    /// batch does not update keeps its old content, so the result differs from `new`.
    ///
    /// ```swift
    /// struct Item: Equatable { var id: Int; var title: String }
    /// let batch = Changeset(
    ///     rowUpdates: [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 0))],
    ///     sectionCountsBefore: [1], sectionCountsAfter: [1])
    /// _ = try ListSimulator.apply(
    ///     batch, to: [(section: "A", rows: [Item(id: 1, title: "old")])],
    ///     expecting: [(section: "A", rows: [Item(id: 1, title: "new")])], identifiedBy: \.id)
    /// ```
    ///
    /// - Throws: ``Violation``, as the form without `id` does.
    /// - Complexity: O(*n* + *c* log *c*) for *n* rows and sections and *c* changes.
    public static func apply<Section: Equatable, Row: Equatable, ID: Equatable>(
        _ changeset: Changeset,
        to old: [(section: Section, rows: [Row])],
        expecting new: [(section: Section, rows: [Row])],
        identifiedBy id: (Row) -> ID
    ) throws -> [(section: Section, rows: [Row])] {
        try applyChecked(changeset, to: old, expecting: new, named: true, identity: id)
    }

    /// Applies `changeset` to `old`, sections of row identifiers without section identifiers, as UITableView
    /// would, and returns the result, which equals `new`.
    ///
    /// - Throws: ``Violation``, as the sectioned form does.
    public static func apply<Row: Equatable>(
        _ changeset: Changeset, to old: [[Row]], expecting new: [[Row]]
    ) throws -> [[Row]] {
        try applyUnnamed(changeset, to: old, expecting: new) { $0 }
    }

    /// Applies `changeset` to `old`, sections of rows that carry content without section identifiers, as
    /// UITableView would, and returns the result, which equals `new`; `id` says which rows are the same row.
    ///
    /// - Throws: ``Violation``, as the sectioned form does.
    public static func apply<Row: Equatable, ID: Equatable>(
        _ changeset: Changeset, to old: [[Row]], expecting new: [[Row]], identifiedBy id: (Row) -> ID
    ) throws -> [[Row]] {
        try applyUnnamed(changeset, to: old, expecting: new, identity: id)
    }

    /// Sections without identifiers: all compare equal.
    static func applyUnnamed<Row: Equatable, ID: Equatable>(
        _ changeset: Changeset, to old: [[Row]], expecting new: [[Row]], identity: (Row) -> ID
    ) throws(Violation) -> [[Row]] {
        let result = try applyChecked(
            changeset, to: old.map { (section: Unnamed(), rows: $0) },
            expecting: new.map { (section: Unnamed(), rows: $0) }, named: false, identity: identity)
        return result.map(\.rows)
    }

    /// The checks and the application, in UIKit's order.
    static func applyChecked<Section: Equatable, Row: Equatable, ID: Equatable>(
        _ changeset: Changeset,
        to old: [(section: Section, rows: [Row])],
        expecting new: [(section: Section, rows: [Row])],
        named: Bool,
        identity: (Row) -> ID
    ) throws(Violation) -> [(section: Section, rows: [Row])] {
        let oldCounts = old.map(\.rows.count)
        let newCounts = new.map(\.rows.count)
        guard changeset.sectionCountsBefore == oldCounts else {
            throw .countsMismatch(.before, declared: changeset.sectionCountsBefore, actual: oldCounts)
        }
        guard changeset.sectionCountsAfter == newCounts else {
            throw .countsMismatch(.after, declared: changeset.sectionCountsAfter, actual: newCounts)
        }
        let plan = try SectionPlan(changeset, oldCount: old.count, newCount: new.count)
        try checkRows(changeset, plan: plan, oldCounts: oldCounts, newCounts: newCounts)
        let result = try build(changeset, plan: plan, old: old, new: new, identity: identity)
        if let difference = difference(result, new, named: named) {
            throw .resultMismatch(difference)
        }
        return result
    }

    /// The identifier of a section that has none.
    struct Unnamed: Equatable {}
}
