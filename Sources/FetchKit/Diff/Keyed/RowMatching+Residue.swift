extension RowMatching {
    /// Matches the residue by hashing with ``Int64IndexTable`` — or, when the old keys are dense (their range
    /// at most four times their number, as auto-incremented primary keys are), by indexing an array with
    /// `key - minimum`: no hashing, and memory visited in key order rather than at random.
    /// - Complexity: O(residue) expected.
    mutating func matchResidue(_ residue: Residue<Int64>) {
        guard !residue.old.isEmpty, !residue.new.isEmpty else { return }
        if matchDenseResidue(residue) { return }
        var table = Int64IndexTable(count: residue.old.count)
        for (i, key) in zip(residue.old, residue.oldKeys) {
            table.insertIfAbsent(key, index: i)
        }
        for (j, key) in zip(residue.new, residue.newKeys) {
            linkIfFree(old: table.index(of: key), new: j)
        }
    }

    /// Matches the residue through an array indexed by `key - minimum` when the old keys are dense; `false`
    /// (nothing done) when they are not.
    private mutating func matchDenseResidue(_ residue: Residue<Int64>) -> Bool {
        var low = Int64.max
        var high = Int64.min
        for key in residue.oldKeys {
            low = Swift.min(low, key)
            high = Swift.max(high, key)
        }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span < Int64(residue.old.count) * 4, span < Int64(Int32.max) else { return false }
        let count = Int(span) + 1
        let slots = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
        defer { slots.deallocate() }
        slots.initialize(repeating: -1)
        for (i, key) in zip(residue.old, residue.oldKeys) {
            let slot = Int(key &- low)
            // The first index of a repeated key wins, as in the hash table.
            if slots[slot] < 0 { slots[slot] = i }
        }
        for (j, key) in zip(residue.new, residue.newKeys) where key >= low && key <= high {
            let i = slots[Int(key &- low)]
            if i >= 0 { linkIfFree(old: i, new: j) }
        }
        return true
    }

    /// Matches the residue by hashing with `Dictionary`.
    /// - Complexity: O(residue) expected.
    mutating func matchResidueWithDictionary<Key: Hashable>(_ residue: Residue<Key>) {
        guard !residue.old.isEmpty, !residue.new.isEmpty else { return }
        var table = [Key: Int32](minimumCapacity: residue.old.count)
        // Backwards, so that of repeated keys the first index wins.
        for (i, key) in zip(residue.old, residue.oldKeys).reversed() {
            table[key] = i
        }
        for (j, key) in zip(residue.new, residue.newKeys) {
            if let i = table[key] {
                linkIfFree(old: i, new: j)
            }
        }
    }
}
