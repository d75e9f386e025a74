/// The diff engine: the changeset between two sectioned results, matching rows by primary key.
///
/// Rows are matched by key and sections by name. When both sides are sorted by one total order (the
/// request's sort keys, then the primary key), a merge walk matches every row whose place in that order did
/// not change, and only the rest is hashed. Moves are minimal: within each section the rows that stay keep a
/// longest increasing subsequence in place, so moving one row of 10,000 is one move.
///
/// ```swift
/// let old = DiffSide(keys: [1, 2, 3] as [Int64])
/// let new = DiffSide(keys: [2, 3, 1] as [Int64])
/// let changes = KeyedDiff.changeset(from: old, to: new) { _, _ in true }
/// changes.rowMoves.map { "\($0.from) -> \($0.to)" }   // ["[0, 0] -> [0, 2]"]
/// ```
///
/// The result follows ``Changeset``'s batch contract; ``Changeset/staged()`` splits it into stages for
/// collection views.
@_spi(Benchmarks) public enum KeyedDiff {
    /// The changeset from `old` to `new`.
    ///
    /// - Parameters:
    ///   - old: The results before: keys in order, with their sections.
    ///   - new: The results after.
    ///   - isOrderedBefore: Whether old row `i` sorts strictly before new row `j` (indexes into the sides'
    ///     `keys`) in the total order both sides are sorted by; `nil` when the sides share no order (for example
    ///     a transition between two sort orders): then every row is hashed and sections may be reordered, which
    ///     is reported as minimal section moves.
    ///   - isContentEqual: Whether old row `i` and new row `j`, which have the same key, show the same content.
    ///     It is called once for every matched row that is reported neither deleted nor inserted.
    ///   - isPinned: Whether old row `i` should stay in place: when rows of a section change their order and
    ///     either a pinned row or others could move, the others move (a row the user dragged himself, say).
    /// - Returns: Deletes at old paths, inserts at new paths, moves old to new, updates old and new.
    /// - Complexity: O(n + m) for the walk and the assembly, plus hashing of the rows the walk leaves
    ///   unmatched (all rows without a shared order), plus O(k log k) for the k rows out of order.
    public static func changeset<Key: Hashable>(
        from old: DiffSide<Key>, to new: DiffSide<Key>, isOrderedBefore: ((Int, Int) -> Bool)? = nil,
        isPinned: ((Int) -> Bool)? = nil, isContentEqual: (Int, Int) -> Bool
    ) -> Changeset {
        let (walked, residue) = walk(old.keys, new.keys, isOrderedBefore: isOrderedBefore)
        var matching = walked
        matching.matchResidueWithDictionary(residue)
        return assemble(old: old, new: new, matching: matching, isContentEqual: isContentEqual, isPinned: isPinned)
    }

    /// The changeset from `old` to `new` for `Int64` keys, hashing with a purpose-built open-addressing table.
    ///
    /// Same contract as the generic ``changeset(from:to:isOrderedBefore:isContentEqual:)-(DiffSide<Key>,_,_,_)``.
    public static func changeset(
        from old: DiffSide<Int64>, to new: DiffSide<Int64>, isOrderedBefore: ((Int, Int) -> Bool)? = nil,
        isPinned: ((Int) -> Bool)? = nil, isContentEqual: (Int, Int) -> Bool
    ) -> Changeset {
        let (walked, residue) = walk(old.keys, new.keys, isOrderedBefore: isOrderedBefore)
        var matching = walked
        matching.matchResidue(residue)
        return assemble(old: old, new: new, matching: matching, isContentEqual: isContentEqual, isPinned: isPinned)
    }

    /// The `Int64` diff with the residue hashed by `Dictionary` instead of the open-addressing table, so that a
    /// benchmark can compare the two.
    public static func changesetHashingWithDictionary(
        from old: DiffSide<Int64>, to new: DiffSide<Int64>, isOrderedBefore: ((Int, Int) -> Bool)? = nil,
        isContentEqual: (Int, Int) -> Bool
    ) -> Changeset {
        let (walked, residue) = walk(old.keys, new.keys, isOrderedBefore: isOrderedBefore)
        var matching = walked
        matching.matchResidueWithDictionary(residue)
        return assemble(old: old, new: new, matching: matching, isContentEqual: isContentEqual)
    }

    private static func walk<Key: Hashable>(
        _ old: [Key], _ new: [Key], isOrderedBefore: ((Int, Int) -> Bool)?
    ) -> (RowMatching, RowMatching.Residue<Key>) {
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                if let isOrderedBefore {
                    RowMatching.mergeWalk(old: old, new: new, isOrderedBefore: isOrderedBefore)
                } else {
                    RowMatching.trimWalk(old: old, new: new)
                }
            }
        }
    }

    private static func assemble<Key>(
        old: DiffSide<Key>, new: DiffSide<Key>, matching: RowMatching, isContentEqual: (Int, Int) -> Bool,
        isPinned: ((Int) -> Bool)? = nil
    ) -> Changeset {
        let oldLayout = SectionLayout(old)
        let newLayout = SectionLayout(new)
        var sections = SectionMatching(oldNames: old.sectionNames, newNames: new.sectionNames)
        sections.planMoves(old: oldLayout, new: newLayout, matching: matching)
        return assemble(
            old: oldLayout, new: newLayout, sections: sections, matching: matching, isContentEqual: isContentEqual,
            isPinned: isPinned)
    }
}
