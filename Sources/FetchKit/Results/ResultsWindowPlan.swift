/// How the incremental path makes a controller's new rows from its old ones: runs of old rows that stay,
/// with the re-read rows inserted between them at their places in the order, cut to the request's limit.
///
/// Old rows are those of the previous results; the rows a change names are removed from them and the
/// re-read ones (those the database says still match) are inserted. Places are found by binary search on
/// the rows' ``SortKey``s, which order exactly like the database's `ORDER BY`.
///
/// With a `fetchLimit` the results are the first `limit` rows of the request. When the old window was
/// full, rows the controller never read may lie after its last row, so a re-read row that now sorts after
/// that last row cannot be placed (unread rows may come first): it is left out. Rows that end up past the
/// limit are pushed out. When the window was full and fewer than `limit` rows remain, the plan is `nil`:
/// the window must be refilled from the database, which the refetch path does (an `OFFSET` query could
/// only refill it correctly if no later commit were visible to it, which a reader cannot know).
struct ResultsWindowPlan {
    /// One run of the new rows.
    enum Step: Equatable {
        /// Old rows `range`, in order.
        case old(Range<Int>)
        /// Re-read row `index`.
        case fresh(Int)
    }

    /// The runs, in order.
    private(set) var steps: [Step] = []
    /// The number of new rows.
    private(set) var count = 0

    /// Plans the new rows.
    ///
    /// - Parameters:
    ///   - oldKeys: The old rows' sort keys, strictly increasing.
    ///   - removed: The indexes of the old rows the change names, ascending.
    ///   - freshKeys: The re-read rows' sort keys, strictly increasing.
    ///   - limit: The request's `fetchLimit` (positive), if any.
    /// - Returns: `nil` when a full window shrank below `limit` and must be refilled.
    /// - Complexity: O(*k* log *n* + *r*) for *k* re-read rows, *n* old rows and *r* runs.
    init?(oldKeys: [SortKey], removed: [Int], freshKeys: [SortKey], limit: Int?) {
        let oldCount = oldKeys.count
        let wasFull = limit.map { oldCount >= $0 } ?? false
        var cursor = 0
        var nextRemoved = 0
        func keepOld(upTo end: Int) {
            while cursor < end {
                while nextRemoved < removed.count, removed[nextRemoved] < cursor { nextRemoved += 1 }
                if nextRemoved < removed.count, removed[nextRemoved] == cursor {
                    cursor += 1
                    nextRemoved += 1
                    continue
                }
                let stop = nextRemoved < removed.count ? min(end, removed[nextRemoved]) : end
                steps.append(.old(cursor..<stop))
                count += stop - cursor
                cursor = stop
            }
        }
        var searchFrom = 0
        for (index, key) in freshKeys.enumerated() {
            let position = Self.lowerBound(of: key, in: oldKeys, from: searchFrom)
            searchFrom = position
            // Past the last row of a full window: rows the controller never read may come first.
            if wasFull && position == oldCount { break }
            keepOld(upTo: position)
            steps.append(.fresh(index))
            count += 1
        }
        keepOld(upTo: oldCount)
        guard let limit else { return }
        if count < limit {
            if wasFull { return nil }
            return
        }
        truncate(to: limit)
    }

    /// The new rows (or parallel values): `old` and `fresh` are parallel to the old and re-read rows.
    ///
    /// - Complexity: O(*m*) for *m* new rows.
    func splice<Element>(old: [Element], fresh: [Element]) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for step in steps {
            switch step {
            case .old(let range): result.append(contentsOf: old[range])
            case .fresh(let index): result.append(fresh[index])
            }
        }
        return result
    }

    /// Keeps the first `limit` rows.
    private mutating func truncate(to limit: Int) {
        var total = 0
        var kept: [Step] = []
        for step in steps where total < limit {
            switch step {
            case .old(let range):
                let take = min(range.count, limit - total)
                kept.append(.old(range.lowerBound..<(range.lowerBound + take)))
                total += take
            case .fresh:
                kept.append(step)
                total += 1
            }
        }
        steps = kept
        count = total
    }

    /// The first index in `keys[from...]` whose key is not less than `key`.
    static func lowerBound(of key: SortKey, in keys: [SortKey], from: Int) -> Int {
        var low = from
        var high = keys.count
        while low < high {
            let mid = low + (high - low) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
