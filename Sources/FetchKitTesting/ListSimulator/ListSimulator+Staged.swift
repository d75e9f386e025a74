import FetchKit

extension ListSimulator {
    /// Applies staged changes to `old` as a collection view would, one batch per stage, and returns the snapshot
    /// after each stage; the last equals `new`.
    ///
    /// First the whole ``StagedChangeset/changeset`` must pass ``apply(_:to:expecting:identifiedBy:)``. Then
    /// the stages must come in order (updates; deletes; section inserts and moves; row inserts and moves), one for
    /// each kind of operation the whole batch holds and no other, each holding only operations of its kind; and
    /// each stage's changeset must pass the simulator from the snapshot the previous stage left to the one its
    /// stage should leave. Those snapshots are computed here, independently of FetchKit's staging: after the
    /// updates, the old layout with the updated rows' new content; after the deletes, the deleted sections and
    /// rows gone; after the section stage, the new sections in order, inserted ones full and the others holding
    /// their remaining old rows; after the last stage, `new`.
    ///
    /// ```swift
    /// let snapshots = try ListSimulator.applyStaged(changeset.staged(), to: old, expecting: new, identifiedBy: \.id)
    /// ```
    ///
    /// - Throws: ``Violation``: what ``apply(_:to:expecting:identifiedBy:)`` throws for the whole batch,
    ///   ``Violation/invalidStages(_:)`` for the shape of the stages, ``Violation/inStage(_:_:)`` wrapping what a
    ///   stage's batch breaks.
    /// - Complexity: O(*n* × *s* + *c* log *c*) for *n* rows and sections, *s* stages and *c* changes.
    public static func applyStaged<Section: Equatable, Row: Equatable, ID: Equatable>(
        _ staged: StagedChangeset,
        to old: [(section: Section, rows: [Row])],
        expecting new: [(section: Section, rows: [Row])],
        identifiedBy id: (Row) -> ID
    ) throws -> [[(section: Section, rows: [Row])]] {
        try applyStagedChecked(staged, to: old, expecting: new, identity: id)
    }

    /// Applies staged changes to `old` (sections of row identifiers) as a collection view would, and returns the
    /// snapshot after each stage; see ``applyStaged(_:to:expecting:identifiedBy:)``.
    ///
    /// - Throws: ``Violation``, as the form with `id` does.
    public static func applyStaged<Section: Equatable, Row: Equatable>(
        _ staged: StagedChangeset,
        to old: [(section: Section, rows: [Row])],
        expecting new: [(section: Section, rows: [Row])]
    ) throws -> [[(section: Section, rows: [Row])]] {
        try applyStagedChecked(staged, to: old, expecting: new) { $0 }
    }

    static func applyStagedChecked<Section: Equatable, Row: Equatable, ID: Equatable>(
        _ staged: StagedChangeset,
        to old: [(section: Section, rows: [Row])],
        expecting new: [(section: Section, rows: [Row])],
        identity: (Row) -> ID
    ) throws(Violation) -> [[(section: Section, rows: [Row])]] {
        let whole = staged.changeset
        _ = try applyChecked(whole, to: old, expecting: new, named: true, identity: identity)
        try checkStageShape(staged)
        let plan = try SectionPlan(whole, oldCount: old.count, newCount: new.count)
        var current = old
        var snapshots: [[(section: Section, rows: [Row])]] = []
        for stage in staged.stages {
            let target = stageSnapshot(stage.kind, whole, plan: plan, old: old, new: new)
            do {
                current = try applyChecked(
                    stage.changeset, to: current, expecting: target, named: true, identity: identity)
            } catch {
                throw .inStage(stage.kind, error)
            }
            snapshots.append(current)
        }
        return snapshots
    }

    /// The stages are in order, one per kind of operation the whole batch holds, each with its kind's operations.
    private static func checkStageShape(_ staged: StagedChangeset) throws(Violation) {
        let whole = staged.changeset
        let needed: [StagedChangeset.Stage.Kind] = StagedChangeset.Stage.Kind.allCases.filter { kind in
            switch kind {
            case .updates: !whole.rowUpdates.isEmpty || whole.rowMoves.contains(where: \.isUpdated)
            case .deletes: !whole.sectionDeletes.isEmpty || !whole.rowDeletes.isEmpty
            case .sectionInsertsAndMoves: !whole.sectionInserts.isEmpty || !whole.sectionMoves.isEmpty
            case .rowInsertsAndMoves: !whole.rowInserts.isEmpty || !whole.rowMoves.isEmpty
            }
        }
        let kinds = staged.stages.map(\.kind)
        guard kinds == needed else {
            let names = { (kinds: [StagedChangeset.Stage.Kind]) in kinds.map(\.rawValue).joined(separator: ", ") }
            throw .invalidStages("the stages are [\(names(kinds))], the batch needs [\(names(needed))] in that order")
        }
        for stage in staged.stages {
            let batch = stage.changeset
            let foreign: [(String, Bool)] = [
                ("section deletes", stage.kind != .deletes && !batch.sectionDeletes.isEmpty),
                ("row deletes", stage.kind != .deletes && !batch.rowDeletes.isEmpty),
                ("section inserts", stage.kind != .sectionInsertsAndMoves && !batch.sectionInserts.isEmpty),
                ("section moves", stage.kind != .sectionInsertsAndMoves && !batch.sectionMoves.isEmpty),
                ("row inserts", stage.kind != .rowInsertsAndMoves && !batch.rowInserts.isEmpty),
                ("row moves", stage.kind != .rowInsertsAndMoves && !batch.rowMoves.isEmpty),
                ("row updates", stage.kind != .updates && !batch.rowUpdates.isEmpty)
            ]
            if let (name, _) = foreign.first(where: \.1) {
                throw .invalidStages("the \(stage.kind.rawValue) stage holds \(name)")
            }
        }
    }

    /// The snapshot a stage of `kind` should leave, given the whole (checked) batch.
    private static func stageSnapshot<Section, Row>(
        _ kind: StagedChangeset.Stage.Kind, _ whole: Changeset, plan: SectionPlan,
        old: [(section: Section, rows: [Row])], new: [(section: Section, rows: [Row])]
    ) -> [(section: Section, rows: [Row])] {
        var updated = old
        for update in whole.rowUpdates {
            updated[update.from.section].rows[update.from.row] = new[update.to.section].rows[update.to.row]
        }
        for move in whole.rowMoves where move.isUpdated {
            updated[move.from.section].rows[move.from.row] = new[move.to.section].rows[move.to.row]
        }
        if kind == .updates { return updated }

        let deletedRows = Set(whole.rowDeletes)
        let remaining = updated.indices.map { section in
            updated[section].rows.indices
                .filter { !deletedRows.contains(RowPath(section: section, row: $0)) }
                .map { updated[section].rows[$0] }
        }
        if kind == .deletes {
            return old.indices.filter { !plan.deleted[$0] }.map { (section: old[$0].section, rows: remaining[$0]) }
        }
        if kind == .sectionInsertsAndMoves {
            return plan.newToOld.enumerated().map { newSection, oldSection in
                oldSection.map { (section: old[$0].section, rows: remaining[$0]) } ?? new[newSection]
            }
        }
        return new
    }
}
