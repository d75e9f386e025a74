extension ResultsSnapshot {
    /// A snapshot of the given sections, in order, each a list of rows with their objects; a section may be
    /// empty (as a table view keeps a section the user dragged its last row out of).
    ///
    /// - Complexity: O(*n* log *n*) for *n* rows.
    init(sections: [(name: String, entries: [(row: Row, object: Object)])], primaryKey: String, order: SortKeyOrder?) {
        let entries = sections.flatMap(\.entries)
        let flat = ResultsSnapshot(
            rows: entries.map(\.row), objects: entries.map(\.object), primaryKey: primaryKey, sectionKey: nil,
            order: order)
        var starts: [Int] = []
        var start = 0
        for section in sections {
            starts.append(start)
            start += section.entries.count
        }
        self.init(
            entries: flat.entries, sectionNames: sections.map(\.name), sectionStarts: starts, locator: flat.locator,
            primaryKey: primaryKey)
    }

    /// Each section's rows with their objects, in order.
    var sectionEntries: [(name: String, entries: [(row: Row, object: Object)])] {
        sectionNames.indices.map { section in
            (sectionNames[section], sectionRange(section).map { (entries[$0].row, entries[$0].object) })
        }
    }
}
