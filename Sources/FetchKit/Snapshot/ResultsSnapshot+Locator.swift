/// How a snapshot finds a row's position from its primary key.
enum ResultsLocator: Sendable {
    /// By order: the row with the key is looked up in a persistent map and its position found by binary
    /// search on sort keys (the entries are strictly increasing in the order). A change updates both the
    /// tree and the map in O(log n), sharing the rest with the previous snapshot.
    case ordered(SortKeyOrder, ResultsKeyMap)
    /// By a dictionary of positions built with the snapshot, for results whose in-memory order is not known
    /// to match the database's (those only ever change by refetch + diff).
    case indexed([Value: Int])
}

extension ResultsSnapshot {
    /// A snapshot of `rows`, fetched in the database's order, and their `objects`.
    ///
    /// With an `order`, the locator is ``ResultsLocator/ordered(_:_:)`` when the rows' sort keys are strictly
    /// increasing (in-memory order agrees with the database's), otherwise ``ResultsLocator/indexed(_:)``.
    /// - Complexity: O(n).
    init(rows: [Row], objects: [Object], primaryKey: String, sectionKey: String?, order: SortKeyOrder?) {
        var names: [String] = []
        var starts: [Int] = []
        if let sectionKey {
            for (index, row) in rows.enumerated() {
                let name = (row[sectionKey] ?? .null).sectionName
                if index == 0 || names.last?.isSameSection(as: name) != true {
                    names.append(name)
                    starts.append(index)
                }
            }
        } else {
            // Without a section key there is always exactly one section (even when empty), as in NSFRC.
            names = [""]
            starts = [0]
        }
        if let order, Self.isStrictlyIncreasing(rows, in: order) {
            let maker = SortKeyMaker(order)
            let entries = ResultsEntries(rows: rows, objects: objects, separator: maker.key)
            self.init(
                entries: entries, sectionNames: names, sectionStarts: starts,
                locator: .ordered(order, ResultsKeyMap(entries, primaryKey: primaryKey)), primaryKey: primaryKey)
        } else {
            var positions: [Value: Int] = [:]
            positions.reserveCapacity(rows.count)
            for (index, row) in rows.enumerated() { positions[row[primaryKey] ?? .null] = index }
            let unordered = SortKeyEncoder().key()
            self.init(
                entries: ResultsEntries(rows: rows, objects: objects, separator: { _ in unordered }),
                sectionNames: names,
                sectionStarts: starts, locator: .indexed(positions), primaryKey: primaryKey)
        }
    }

    /// `true` when the rows' sort keys in `order` strictly increase (the database and ``SortKey`` agree).
    static func isStrictlyIncreasing(_ rows: [Row], in order: SortKeyOrder) -> Bool {
        var encoder = SortKeyEncoder()
        var previous: SortKey?
        for row in rows {
            let key = order.key(row, using: &encoder)
            if let previous, !(previous < key) { return false }
            previous = key
        }
        return true
    }

    /// The position of the row whose primary key is `key`, or `nil` when it is not in the results.
    ///
    /// - Complexity: O(log n).
    func flatIndex(ofKey key: Value) -> Int? {
        switch locator {
        case .indexed(let positions):
            return positions[key]
        case .ordered:
            return try? verifiedFlatIndex(ofKey: key)
        }
    }

    /// The position of the row whose primary key is `key`, or `nil` when it is not in the results.
    ///
    /// - Throws: ``IncrementalInconsistency`` when the key map holds the key but the row is not where its sort
    ///   key places it.
    /// - Complexity: O(log n).
    func verifiedFlatIndex(ofKey key: Value) throws -> Int? {
        guard case .ordered = locator else { return flatIndex(ofKey: key) }
        return try verifiedLocation(ofKey: key)?.position
    }

    /// The position and storage handle of the row whose primary key is `key`, or `nil` when it is not in
    /// the results (which must be ``ResultsLocator/ordered(_:_:)``).
    ///
    /// - Throws: ``IncrementalInconsistency`` when the key map holds the key but the row is not where its sort
    ///   key places it.
    /// - Complexity: O(log n).
    func verifiedLocation(ofKey key: Value) throws -> (position: Int, handle: UInt32)? {
        guard case .ordered(let order, let rows) = locator else {
            throw IncrementalInconsistency(description: "the snapshot's positions are not found by order")
        }
        guard let handle = rows[key] else { return nil }
        let sortKey = SortKeyMaker(order).key(entries.row(handle: handle))
        guard let position = entries.index(of: handle, sortKey: sortKey) else {
            throw IncrementalInconsistency(description: "row \(key) is not where its sort key places it")
        }
        return (position, handle)
    }

    /// The order and key map, when positions are found by order.
    var orderedLocator: (order: SortKeyOrder, rows: ResultsKeyMap)? {
        if case .ordered(let order, let rows) = locator { return (order, rows) }
        return nil
    }
}
