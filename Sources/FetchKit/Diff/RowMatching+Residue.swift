extension RowMatching {
    /// Matches the residue by hashing with ``Int64IndexTable``.
    /// - Complexity: O(residue) expected.
    mutating func matchResidue(_ residue: Residue, old: UnsafeBufferPointer<Int64>, new: UnsafeBufferPointer<Int64>) {
        guard !residue.old.isEmpty, !residue.new.isEmpty else { return }
        var table = Int64IndexTable(count: residue.old.count)
        for i in residue.old {
            table.insertIfAbsent(old[Int(i)], index: i)
        }
        for j in residue.new {
            linkIfFree(old: table.index(of: new[Int(j)]), new: j)
        }
    }

    /// Matches the residue by hashing with `Dictionary`.
    /// - Complexity: O(residue) expected.
    mutating func matchResidueWithDictionary<Key: Hashable>(
        _ residue: Residue, old: UnsafeBufferPointer<Key>, new: UnsafeBufferPointer<Key>
    ) {
        guard !residue.old.isEmpty, !residue.new.isEmpty else { return }
        var table = [Key: Int32](minimumCapacity: residue.old.count)
        // Backwards, so that of repeated keys the first index wins.
        for i in residue.old.reversed() {
            table[old[Int(i)]] = i
        }
        for j in residue.new {
            if let i = table[new[Int(j)]] {
                linkIfFree(old: i, new: j)
            }
        }
    }
}
