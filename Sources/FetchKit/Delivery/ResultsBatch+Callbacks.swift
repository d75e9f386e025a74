/// One delegate callback of a batch, whoever sends it (see ``ResultsControllerDelegate/receive(_:from:)``).
enum BatchCallback<Section: Sendable, Object: Sendable, Update: Sendable>: Sendable {
    case willChange
    case section(Section, old: Int?, ResultsChangeType, new: Int?)
    case row(Object, old: RowPath?, ResultsChangeType, new: RowPath?)
    case didChange
    case didApply(Update)
}

extension ResultsBatch {
    /// A callback of a results controller's batch (also what a multi-controller sends).
    typealias Callback = BatchCallback<ResultsSection<Object>, Object, ResultsBatch<Object>>

    /// Calls `body` with each callback of this batch in contract order: will-change; section deletes,
    /// inserts, moves; row deletes, inserts, moves, updates; did-change; the whole batch.
    ///
    /// - Complexity: O(*c* + *s*) for *c* changes and *s* sections (section values are built once).
    func forEachCallback(_ body: (Callback) -> Void) {
        guard changeset != nil else { return }
        body(.willChange)
        if let prepared = preparedChanges {
            prepared.forEach(body)
        } else {
            forEachChange(body)
        }
        body(.didChange)
        body(.didApply(self))
    }

    /// Calls `body` with each section and row callback of this batch, in contract order, building them now.
    func forEachChange(_ body: (Callback) -> Void) {
        guard let changeset else { return }
        Self.forEachChange(previous: previous, snapshot: snapshot, changeset: changeset, body)
    }

    static func forEachChange(
        previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset,
        _ body: (Callback) -> Void
    ) {
        // Section values are built once per batch (each `sections` call is O(s)).
        let oldSections = changeset.sectionDeletes.isEmpty ? [] : previous.sections
        let newSections = changeset.sectionInserts.isEmpty && changeset.sectionMoves.isEmpty ? [] : snapshot.sections
        changeset.forEachChange(
            oldSection: { oldSections[$0] }, newSection: { newSections[$0] },
            oldObject: { previous.object(at: $0) }, newObject: { snapshot.object(at: $0) }, body)
    }
}

extension Changeset {
    /// Calls `body` with each section and row callback of this changeset in contract order — section deletes,
    /// inserts, moves; row deletes, inserts, moves, updates — reading what they carry through the closures:
    /// sections and objects before the batch (deletes) and after it (the rest). A change whose object is not
    /// found is skipped. The one walk every controller's callbacks come from.
    func forEachChange<Section: Sendable, Object: Sendable, Update: Sendable>(
        oldSection: (Int) -> Section, newSection: (Int) -> Section,
        oldObject: (RowPath) -> Object?, newObject: (RowPath) -> Object?,
        _ body: (BatchCallback<Section, Object, Update>) -> Void
    ) {
        for index in sectionDeletes { body(.section(oldSection(index), old: index, .delete, new: nil)) }
        for index in sectionInserts { body(.section(newSection(index), old: nil, .insert, new: index)) }
        for move in sectionMoves { body(.section(newSection(move.to), old: move.from, .move, new: move.to)) }
        for path in rowDeletes {
            if let object = oldObject(path) { body(.row(object, old: path, .delete, new: nil)) }
        }
        for path in rowInserts {
            if let object = newObject(path) { body(.row(object, old: nil, .insert, new: path)) }
        }
        for move in rowMoves {
            if let object = newObject(move.to) { body(.row(object, old: move.from, .move, new: move.to)) }
        }
        for update in rowUpdates {
            if let object = newObject(update.to) { body(.row(object, old: update.from, .update, new: update.to)) }
        }
    }
}
