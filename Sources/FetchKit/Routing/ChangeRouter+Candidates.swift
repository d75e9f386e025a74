extension ChangeRouter.EntityRoutes {
    /// Adds to `ids` the routes that the re-read `rows` can affect: those holding a changed key, those
    /// indexed by a value a row has (an equality or a range, when the row matches), and the unindexed ones a
    /// row matches. For each local route (``RoutePlan/isLocal``) it adds to `concerns` the changed keys that can
    /// change its results: the keys it holds and the keys of rows it matches (the others can neither leave nor
    /// enter it).
    ///
    /// - Complexity: O(k · (c + r log n + u)) for k rows, c equality-indexed columns, r range-indexed columns of n
    ///   routes and u unindexed routes, plus the holders and the hits.
    func candidates(for rows: RereadRows, into ids: inout Set<Int>, concerns: inout [Int: Set<Value>]) {
        for key in rows.keys {
            holders.forEach(holding: key) { id in
                ids.insert(id)
                if local.contains(id) { concerns[id, default: []].insert(key) }
            }
        }
        for (key, row) in rows.rows {
            for (column, byValue) in equality {
                guard let indexed = byValue[row[column] ?? .null] else { continue }
                for id in indexed {
                    let bounded = local.contains(id)
                    // A route that gets the change anyway needs no more evaluation, unless its keys are counted.
                    guard bounded || !ids.contains(id), self.indexed[id]?.matches(row) == true else { continue }
                    ids.insert(id)
                    if bounded { concerns[id, default: []].insert(key) }
                }
            }
        }
        for (column, index) in ranges {
            for (key, row) in rows.rows {
                index.forEach(holding: row[column] ?? .null) { id in
                    let bounded = local.contains(id)
                    guard bounded || !ids.contains(id), self.indexed[id]?.matches(row) == true else { return }
                    ids.insert(id)
                    if bounded { concerns[id, default: []].insert(key) }
                }
            }
        }
        if unindexed.isEmpty { return }
        for (id, predicate) in unindexed {
            if local.contains(id) {
                for (key, row) in rows.rows where predicate.matches(row) {
                    ids.insert(id)
                    concerns[id, default: []].insert(key)
                }
            } else if !ids.contains(id), rows.rows.values.contains(where: predicate.matches) {
                ids.insert(id)
            }
        }
    }
}

extension ChangeRouter.EntityRoutes {
    /// Adds to `ids` the routes among `routeIDs` (those reading a to-many related table) that a change of the
    /// related rows pointing at `keys` can affect: those holding one of the keys, and those whose in-memory
    /// conjuncts one of the keys' `rows` passes (it may enter). A key without a row no longer exists.
    ///
    /// - Complexity: O(k · (c + r log n + u)) for the k keys, as ``candidates(for:into:concerns:)``.
    func candidates(
        referencing keys: Set<Value>, rows: [Value: Row], among routeIDs: Set<Int>, into ids: inout Set<Int>
    ) {
        var found: Set<Int> = []
        var unused: [Int: Set<Value>] = [:]
        var parents = RereadRows(keys: keys, rows: [:], relatedColumns: [], followed: [:])
        for key in keys { parents.rows[key] = rows[key] }
        candidates(for: parents, into: &found, concerns: &unused)
        ids.formUnion(found.count < routeIDs.count ? found.filter(routeIDs.contains) : routeIDs.filter(found.contains))
    }

    /// Rebuilds the range indexes that routes came to or left since the last change (under the router's lock,
    /// before the routes are copied).
    mutating func prepareRanges() {
        guard !ranges.isEmpty else { return }
        for column in Array(ranges.keys) { ranges[column]?.prepare() }
    }
}
