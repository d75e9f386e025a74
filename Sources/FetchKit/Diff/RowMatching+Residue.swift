extension RowMatching {
    /// Matches the residue by hashing with ``Int64IndexTable``.
    /// - Complexity: O(residue) expected.
    mutating func matchResidue(_ residue: Residue<Int64>) {
        guard !residue.old.isEmpty, !residue.new.isEmpty else { return }
        var table = Int64IndexTable(count: residue.old.count)
        for (i, key) in zip(residue.old, residue.oldKeys) {
            table.insertIfAbsent(key, index: i)
        }
        for (j, key) in zip(residue.new, residue.newKeys) {
            linkIfFree(old: table.index(of: key), new: j)
        }
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
