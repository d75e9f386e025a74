/// One delegate callback of a batch, whoever sends it (a ``ResultsController``, a ``MultiResultsController``).
enum BatchCallback<Object: Sendable> {
    case willChange
    case section(ResultsSection<Object>, old: Int?, ResultsChangeType, new: Int?)
    case row(Object, old: RowPath?, ResultsChangeType, new: RowPath?)
    case didChange
    case didApply(ResultsUpdate<Object>)
}

extension ResultsUpdate {
    /// Calls `body` with each callback of this batch in contract order: will-change; section deletes,
    /// inserts, moves; row deletes, inserts, moves, updates; did-change; the whole batch.
    ///
    /// - Complexity: O(*c* + *s*) for *c* changes and *s* sections (section values are built once).
    func forEachCallback(_ body: (BatchCallback<Object>) -> Void) {
        guard changeset != nil else { return }
        body(.willChange)
        if let prepared = preparedChanges {
            for callback in prepared { body(callback) }
        } else {
            forEachChange(body)
        }
        body(.didChange)
        body(.didApply(self))
    }

    /// The section and row callbacks of this batch, in contract order (what ``forEachCallback(_:)`` sends
    /// between will-change and did-change), built once: a batch that thousands of followers deliver
    /// prepares them when it is built, so no follower looks objects up again.
    static func prepareChanges(
        previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset
    ) -> [BatchCallback<Object>] {
        var callbacks: [BatchCallback<Object>] = []
        callbacks.reserveCapacity(changeset.sectionDeletes.count + changeset.sectionInserts.count
            + changeset.sectionMoves.count + changeset.rowDeletes.count + changeset.rowInserts.count
            + changeset.rowMoves.count + changeset.rowUpdates.count)
        forEachChange(previous: previous, snapshot: snapshot, changeset: changeset) { callbacks.append($0) }
        return callbacks
    }

    private func forEachChange(_ body: (BatchCallback<Object>) -> Void) {
        guard let changeset else { return }
        Self.forEachChange(previous: previous, snapshot: snapshot, changeset: changeset, body)
    }

    private static func forEachChange(
        previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset,
        _ body: (BatchCallback<Object>) -> Void
    ) {
        // Section values are built once per batch (each `sections` call is O(s)).
        let oldSections = changeset.sectionDeletes.isEmpty ? [] : previous.sections
        let newSections = changeset.sectionInserts.isEmpty && changeset.sectionMoves.isEmpty ? [] : snapshot.sections
        for index in changeset.sectionDeletes { body(.section(oldSections[index], old: index, .delete, new: nil)) }
        for index in changeset.sectionInserts { body(.section(newSections[index], old: nil, .insert, new: index)) }
        for move in changeset.sectionMoves { body(.section(newSections[move.to], old: move.from, .move, new: move.to)) }
        for path in changeset.rowDeletes {
            if let object = previous.object(at: path) { body(.row(object, old: path, .delete, new: nil)) }
        }
        for path in changeset.rowInserts {
            if let object = snapshot.object(at: path) { body(.row(object, old: nil, .insert, new: path)) }
        }
        for move in changeset.rowMoves {
            if let object = snapshot.object(at: move.to) { body(.row(object, old: move.from, .move, new: move.to)) }
        }
        for update in changeset.rowUpdates {
            if let object = snapshot.object(at: update.to) { body(.row(object, old: update.from, .update, new: update.to)) }
        }
    }
}
