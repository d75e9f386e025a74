/// A batch's section and row callbacks, built once for the thousands of followers of a shared request that
/// deliver it: what each change says, in contract order, beside the sections and objects it carries — so that
/// a delivery walks plain arrays rather than taking a generic enum apart at each callback.
final class PreparedChanges<Object: Sendable>: Sendable {
    /// The section changes, in contract order (deletes, inserts, moves).
    let sectionChanges: [PreparedChange<Int>]
    /// The section each of ``sectionChanges`` carries (the old one for a delete, else the new one).
    let sections: [ResultsSection<Object>]
    /// The row changes, in contract order (deletes, inserts, moves, updates).
    let rowChanges: [PreparedChange<RowPath>]
    /// The object each of ``rowChanges`` carries (the old one for a delete, else the new one).
    let objects: [Object]

    /// The callbacks of `changeset` between `previous` and `snapshot` (a change whose object is not found is
    /// left out, as ``Changeset/forEachChange(oldSection:newSection:oldObject:newObject:_:)`` leaves it out).
    ///
    /// - Complexity: O(*c* + *s*) for *c* changes and *s* sections.
    init(previous: ResultsSnapshot<Object>, snapshot: ResultsSnapshot<Object>, changeset: Changeset) {
        var sectionChanges: [PreparedChange<Int>] = []
        var sections: [ResultsSection<Object>] = []
        var rowChanges: [PreparedChange<RowPath>] = []
        var objects: [Object] = []
        let sectionCount =
            changeset.sectionDeletes.count + changeset.sectionInserts.count + changeset.sectionMoves.count
        sectionChanges.reserveCapacity(sectionCount)
        sections.reserveCapacity(sectionCount)
        let rowCount =
            changeset.rowDeletes.count + changeset.rowInserts.count + changeset.rowMoves.count
            + changeset.rowUpdates.count
        rowChanges.reserveCapacity(rowCount)
        objects.reserveCapacity(rowCount)
        ResultsBatch.forEachChange(previous: previous, snapshot: snapshot, changeset: changeset) { callback in
            switch callback {
            case .section(let section, let old, let type, let new):
                sectionChanges.append(PreparedChange(old: old, type: type, new: new))
                sections.append(section)
            case .row(let object, let old, let type, let new):
                rowChanges.append(PreparedChange(old: old, type: type, new: new))
                objects.append(object)
            case .willChange, .didChange, .didApply:
                break
            }
        }
        self.sectionChanges = sectionChanges
        self.sections = sections
        self.rowChanges = rowChanges
        self.objects = objects
    }

    /// Calls `body` with each section and row callback, in contract order.
    func forEach(_ body: (ResultsBatch<Object>.Callback) -> Void) {
        for (index, change) in sectionChanges.enumerated() {
            body(.section(sections[index], old: change.old, change.type, new: change.new))
        }
        for (index, change) in rowChanges.enumerated() {
            body(.row(objects[index], old: change.old, change.type, new: change.new))
        }
    }
}

/// One prepared section or row change: where it was, what happened, where it is (``PreparedChanges``).
struct PreparedChange<Position: Sendable>: Sendable {
    let old: Position?
    let type: ResultsChangeType
    let new: Position?
}
