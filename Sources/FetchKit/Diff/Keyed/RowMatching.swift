/// Which old row each new row is, by primary key: the first step of a keyed diff.
///
/// A partial one-to-one map between old and new row indexes: `oldToNew[i]` is the new index of old row `i`
/// or -1, and `newToOld` is its inverse. Keys are expected to be unique on each side; a repeated key never
/// breaks the one-to-one map (its extra occurrences are matched at most once, or left unmatched).
struct RowMatching {
    var oldToNew: [Int32]
    var newToOld: [Int32]

    /// Old and new rows left unmatched by the cheap first pass, for hashing: their indexes and keys.
    struct Residue<Key: Hashable> {
        var old: [Int32] = []
        var new: [Int32] = []
        var oldKeys: [Key] = []
        var newKeys: [Key] = []

        @inline(__always)
        mutating func appendOld(_ index: Int, _ key: Key) {
            old.append(Int32(truncatingIfNeeded: index))
            oldKeys.append(key)
        }

        @inline(__always)
        mutating func appendNew(_ index: Int, _ key: Key) {
            new.append(Int32(truncatingIfNeeded: index))
            newKeys.append(key)
        }
    }

    /// Matches rows by a merge walk of two sides sorted by one total order (sort keys, then primary key).
    ///
    /// Rows whose position in the order did not change meet at the walk's head; the rest (deleted,
    /// inserted, or re-sorted rows) are returned as residue. The walk matches only equal keys, so a wrong
    /// `isOrderedBefore` costs matches, never correctness.
    /// - Complexity: O(n + m) key comparisons, and one `isOrderedBefore` call per residue row.
    static func mergeWalk<Key: Hashable>(
        old: UnsafeBufferPointer<Key>, new: UnsafeBufferPointer<Key>, isOrderedBefore: (Int, Int) -> Bool
    ) -> (RowMatching, Residue<Key>) {
        let n = old.count
        let m = new.count
        var residue = Residue<Key>()
        var newToOld = [Int32](repeating: -1, count: m)
        let oldToNew = [Int32](unsafeUninitializedCapacity: n) { buffer, initializedCount in
            newToOld.withUnsafeMutableBufferPointer { newToOld in
                var i = 0
                var j = 0
                while i < n && j < m {
                    let oldKey = old[i]
                    let newKey = new[j]
                    if oldKey == newKey {
                        buffer[i] = Int32(truncatingIfNeeded: j)
                        newToOld[j] = Int32(truncatingIfNeeded: i)
                        i += 1
                        j += 1
                    } else if isOrderedBefore(i, j) {
                        buffer[i] = -1
                        residue.appendOld(i, oldKey)
                        i += 1
                    } else {
                        residue.appendNew(j, newKey)
                        j += 1
                    }
                }
                while i < n {
                    buffer[i] = -1
                    residue.appendOld(i, old[i])
                    i += 1
                }
                while j < m {
                    residue.appendNew(j, new[j])
                    j += 1
                }
            }
            initializedCount = n
        }
        return (RowMatching(oldToNew: oldToNew, newToOld: newToOld), residue)
    }

    /// Matches the common prefix and suffix of two sides with no shared order; everything between is residue.
    /// - Complexity: O(n + m).
    static func trimWalk<Key: Hashable>(
        old: UnsafeBufferPointer<Key>, new: UnsafeBufferPointer<Key>
    ) -> (RowMatching, Residue<Key>) {
        let n = old.count
        let m = new.count
        var prefix = 0
        while prefix < n && prefix < m && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < n - prefix && suffix < m - prefix && old[n - 1 - suffix] == new[m - 1 - suffix] {
            suffix += 1
        }
        var oldToNew = [Int32](repeating: -1, count: n)
        var newToOld = [Int32](repeating: -1, count: m)
        for k in 0..<prefix {
            oldToNew[k] = Int32(truncatingIfNeeded: k)
            newToOld[k] = Int32(truncatingIfNeeded: k)
        }
        for k in 0..<suffix {
            oldToNew[n - 1 - k] = Int32(truncatingIfNeeded: m - 1 - k)
            newToOld[m - 1 - k] = Int32(truncatingIfNeeded: n - 1 - k)
        }
        let residue = Residue<Key>(
            old: (prefix..<(n - suffix)).map { Int32(truncatingIfNeeded: $0) },
            new: (prefix..<(m - suffix)).map { Int32(truncatingIfNeeded: $0) },
            oldKeys: Array(old[prefix..<(n - suffix)]), newKeys: Array(new[prefix..<(m - suffix)]))
        return (RowMatching(oldToNew: oldToNew, newToOld: newToOld), residue)
    }

    /// Links old row `i` and new row `j` when neither is matched yet.
    @inline(__always)
    mutating func linkIfFree(old i: Int32, new j: Int32) {
        guard i >= 0, oldToNew[Int(i)] < 0, newToOld[Int(j)] < 0 else { return }
        oldToNew[Int(i)] = j
        newToOld[Int(j)] = i
    }
}
