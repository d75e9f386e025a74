import FetchKit

extension ListSimulator {
    /// Applies a checked batch as UIKit does and returns the resulting sections.
    ///
    /// Inserted sections and inserted rows are read from `new` (the data source already holds the new data);
    /// moved rows and rows that stay come from `old`; updated rows (updates, and moves with `isUpdated`) are
    /// re-read from `new` at their new path, as a reloaded cell is, once `identity` says they are the same row.
    static func build<Section: Equatable, Row: Equatable, ID: Equatable>(
        _ changeset: Changeset, plan: SectionPlan,
        old: [(section: Section, rows: [Row])], new: [(section: Section, rows: [Row])],
        identity: (Row) -> ID
    ) throws(Violation) -> [(section: Section, rows: [Row])] {
        var leaves = old.map { [Bool](repeating: false, count: $0.rows.count) }
        for path in changeset.rowDeletes { leaves[path.section][path.row] = true }
        for move in changeset.rowMoves { leaves[move.from.section][move.from.row] = true }

        var slots = new.map { [Row?](repeating: nil, count: $0.rows.count) }
        for path in changeset.rowInserts { slots[path.section][path.row] = new[path.section].rows[path.row] }
        for move in changeset.rowMoves {
            let moved = old[move.from.section].rows[move.from.row]
            let updated = new[move.to.section].rows[move.to.row]
            if move.isUpdated, identity(moved) != identity(updated) {
                throw .identityMismatch(
                    from: move.from, to: move.to, oldRow: describe(moved), newRow: describe(updated))
            }
            slots[move.to.section][move.to.row] = move.isUpdated ? updated : moved
        }

        // The rows that stay fill the free slots of their section's new index, in their old order.
        var landing = old.map { [Int?](repeating: nil, count: $0.rows.count) }
        for (newSection, oldSection) in plan.newToOld.enumerated() {
            guard let oldSection else {
                slots[newSection] = new[newSection].rows.map { $0 }
                continue
            }
            var cursor = 0
            for (row, value) in old[oldSection].rows.enumerated() where !leaves[oldSection][row] {
                while cursor < slots[newSection].count, slots[newSection][cursor] != nil { cursor += 1 }
                guard cursor < slots[newSection].count else { break }
                slots[newSection][cursor] = value
                landing[oldSection][row] = cursor
            }
        }

        for update in changeset.rowUpdates {
            let section = plan.oldToNew[update.from.section]
            let row = landing[update.from.section][update.from.row]
            guard let section, let row else {
                throw .resultMismatch("the row at old \(update.from) does not survive the batch, yet it is updated")
            }
            guard RowPath(section: section, row: row) == update.to else {
                throw .misplacedUpdate(update, landsAt: RowPath(section: section, row: row))
            }
            let before = old[update.from.section].rows[update.from.row]
            let after = new[section].rows[row]
            guard identity(before) == identity(after) else {
                throw .identityMismatch(
                    from: update.from, to: update.to, oldRow: describe(before), newRow: describe(after))
            }
            slots[section][row] = after
        }

        return plan.newToOld.enumerated().map { newSection, oldSection in
            let identifier = oldSection.map { old[$0].section } ?? new[newSection].section
            return (section: identifier, rows: slots[newSection].compactMap { $0 })
        }
    }
}
