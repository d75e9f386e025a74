/// Removes and inserts rows in a copy of a snapshot, O(log n + s) each for n rows and s sections, keeping
/// the sections, the key map and the order; the incremental path's working copy.
///
/// It trusts nothing it can check cheaply: a row that would split a section, repeat a section name or is
/// not where its sort key says throws ``IncrementalInconsistency``, and the controller falls back to
/// refetch + diff.
struct ResultsSnapshotEditor<Object: Sendable> {
    private(set) var entries: ResultsEntries<Object>
    private var rows: ResultsKeyMap
    /// Keys removed from the tree whose map entries are dropped only by ``snapshot()``: a row that is removed
    /// and inserted again (an update) then costs one map update, not two.
    private var unmapped: Set<Value> = []
    let order: SortKeyOrder
    private let primaryKey: String
    /// The primary key's attribute name.
    var primaryKeyName: String { primaryKey }
    private let sectionKey: String?
    private var sectionNames: [String]
    private var sectionCounts: [Int]
    private let maker: SortKeyMaker

    /// An editor of `snapshot`, or `nil` when its positions are not found by order.
    ///
    /// - Complexity: O(s) for s sections; O(n) when it compacts the storage first, at most once per n / 2
    ///   changed rows.
    init?(_ snapshot: ResultsSnapshot<Object>, sectionKey: String?) {
        guard let (order, rows) = snapshot.orderedLocator else { return nil }
        self.entries = snapshot.entries
        self.rows = rows
        self.order = order
        self.maker = SortKeyMaker(order)
        self.primaryKey = snapshot.primaryKey
        self.sectionKey = sectionKey
        self.sectionNames = snapshot.sectionNames
        self.sectionCounts = snapshot.sectionCounts
        if entries.isWasteful {
            // Rows that left fill more storage than half the live ones: copy the live ones out first (their
            // handles change, so the map is rebuilt), before any handle of this edit is handed out. O(n),
            // once per n / 2 changed rows at the least.
            entries = entries.compacted(separator: maker.key)
            self.rows = ResultsKeyMap(entries, primaryKey: primaryKey)
        }
    }

    /// The number of rows.
    var count: Int { entries.count }

    /// The sort key of `row`.
    func sortKey(of row: Row) -> SortKey { maker.key(row) }

    /// Removes the row at `position`.
    ///
    /// - Complexity: O(log n + s).
    mutating func remove(at position: Int) {
        removeEntry(at: position, key: entries[position].row[primaryKey] ?? .null)
    }

    /// Removes the last row and returns its primary key (the editor must not be empty).
    ///
    /// - Complexity: O(log n + s).
    mutating func removeLast() -> Value {
        let key = entries[entries.count - 1].row[primaryKey] ?? .null
        removeEntry(at: entries.count - 1, key: key)
        return key
    }

    /// Inserts `row` (whose key must not be present) at the place `sortKey` gives it.
    ///
    /// - Returns: the row's position and its handle in the storage.
    /// - Complexity: O(log n + s).
    @discardableResult
    mutating func insert(_ row: Row, object: Object, sortKey: SortKey) throws -> (position: Int, handle: UInt32) {
        let key = row[primaryKey] ?? .null
        guard rows[key] == nil || unmapped.contains(key) else {
            throw IncrementalInconsistency(description: "row \(key) is already present")
        }
        let position = maker.lowerBound(of: sortKey, in: entries)
        try placeInSection(row, at: position)
        let handle = entries.insert(ResultsEntry(row: row, object: object), at: position, separator: maker.key)
        rows[key] = handle
        unmapped.remove(key)
        return (position, handle)
    }

    /// The snapshot of the edited rows.
    ///
    /// - Complexity: O(s + k) for the k rows removed and not inserted again.
    mutating func snapshot() -> ResultsSnapshot<Object> {
        for key in unmapped { rows[key] = nil }
        unmapped.removeAll()
        var starts: [Int] = []
        starts.reserveCapacity(sectionCounts.count)
        var start = 0
        for count in sectionCounts {
            starts.append(start)
            start += count
        }
        return ResultsSnapshot(
            entries: entries, sectionNames: sectionNames, sectionStarts: starts, locator: .ordered(order, rows),
            primaryKey: primaryKey)
    }

    private mutating func removeEntry(at position: Int, key: Value) {
        entries.remove(at: position, separator: maker.key)
        unmapped.insert(key)
        var start = 0
        for section in sectionCounts.indices {
            if position < start + sectionCounts[section] {
                sectionCounts[section] -= 1
                if sectionCounts[section] == 0 && sectionKey != nil {
                    sectionCounts.remove(at: section)
                    sectionNames.remove(at: section)
                }
                return
            }
            start += sectionCounts[section]
        }
    }

    /// Counts `row`, about to be inserted at `position`, in its section: the one on either side of the
    /// position when the name matches, else a new section, which must fall between two sections.
    private mutating func placeInSection(_ row: Row, at position: Int) throws {
        guard let sectionKey else {
            sectionCounts[0] += 1
            return
        }
        let name = (row[sectionKey] ?? .null).sectionName
        // The first section that ends at or after `position` holds position - 1 (sections are never empty).
        var start = 0
        var section = 0
        while section < sectionCounts.count && start + sectionCounts[section] < position {
            start += sectionCounts[section]
            section += 1
        }
        let end = section < sectionCounts.count ? start + sectionCounts[section] : start
        let before: Int? = position > 0 ? section : nil
        let after: Int? = position < entries.count ? (position < end ? section : section + 1) : nil
        if let before, sectionNames[before].isSameSection(as: name) {
            sectionCounts[before] += 1
            return
        }
        if let after, sectionNames[after].isSameSection(as: name) {
            sectionCounts[after] += 1
            return
        }
        // Strictly inside a section (the rows on both sides are in it), a new section would split it.
        let isInsideSection = before != nil && before == after
        guard !isInsideSection, sectionNames.sectionIndex(of: name) == nil else {
            throw IncrementalInconsistency(description: "a row of section '\(name)' would split another section")
        }
        let index = after ?? sectionCounts.count
        sectionNames.insert(name, at: index)
        sectionCounts.insert(1, at: index)
    }
}
