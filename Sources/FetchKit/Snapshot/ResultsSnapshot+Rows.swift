extension ResultsSnapshot {
    /// Every row, in order (sections concatenated), without its object: what another module of the package needs
    /// to write a snapshot down (with ``sectionNames``, ``sectionStarts`` and ``primaryKey``) and make it again
    /// with ``init(rows:objects:sectionNames:sectionStarts:primaryKey:)``.
    ///
    /// - Complexity: O(n): the array is built on each call.
    package var rows: [Row] { entries.rows }

    /// The column names of the first row, `nil` when there is none (the rows of one request share them).
    ///
    /// - Complexity: O(log n).
    package var columnNames: [String]? { entries.isEmpty ? nil : entries[0].row.names }

    /// The snapshot of `rows` and their `objects` (parallel arrays) in this order, in the sections named
    /// `sectionNames` that start at `sectionStarts` among the rows — as they were, empty sections included. Its rows
    /// are found by a dictionary of their keys, not by order: it serves as the side of a diff.
    ///
    /// `sectionStarts` must be as many as `sectionNames`, start at 0, never decrease and stay within the rows.
    ///
    /// - Complexity: O(n).
    package init(rows: [Row], objects: [Object], sectionNames: [String], sectionStarts: [Int], primaryKey: String) {
        precondition(sectionNames.count == sectionStarts.count, "one start per section")
        precondition(
            zip(sectionStarts, sectionStarts.dropFirst()).allSatisfy { $0 <= $1 }
                && sectionStarts.allSatisfy { (0...rows.count).contains($0) } && (sectionStarts.first ?? 0) == 0,
            "sections start in order within the rows")
        let flat = ResultsSnapshot(rows: rows, objects: objects, primaryKey: primaryKey, sectionKey: nil, order: nil)
        self.init(
            entries: flat.entries, sectionNames: sectionNames, sectionStarts: sectionStarts, locator: flat.locator,
            primaryKey: primaryKey)
    }
}
