extension CountedBTree {
    /// Creates a tree from elements already in strictly increasing order, such as the rows of a fetch
    /// ordered by their sort keys, without comparing more than neighbours.
    ///
    /// Leaves and inner nodes are filled to capacity, evenly, so the tree is as small as it can be.
    ///
    /// ```swift
    /// let tree = try CountedBTree(sorted: rows.map(order.key), areInIncreasingOrder: <)
    /// ```
    ///
    /// - Throws: ``FetchKitError/invalidValue(_:)`` when an element is not greater than the one before it.
    /// - Complexity: O(n).
    public convenience init<S: Sequence<Element>>(
        sorted elements: S, leafCapacity: Int = CountedBTree.defaultLeafCapacity,
        branchCapacity: Int = CountedBTree.defaultBranchCapacity,
        areInIncreasingOrder: @escaping (Element, Element) -> Bool
    ) throws {
        self.init(
            leafCapacity: leafCapacity, branchCapacity: branchCapacity, areInIncreasingOrder: areInIncreasingOrder)
        let all = ContiguousArray(elements)
        for index in all.indices.dropFirst() where !areInIncreasingOrder(all[index - 1], all[index]) {
            throw FetchKitError.invalidValue(
                "CountedBTree(sorted:) needs strictly increasing elements: element \(index) is not greater "
                    + "than element \(index - 1)")
        }
        guard !all.isEmpty else { return }
        var level = buildLeaves(all)
        var height = 0
        while level.nodes.count > 1 {
            level = buildBranches(level)
            height += 1
        }
        root = level.nodes[0]
        self.height = height
        storedCount = all.count
    }

    /// One level of a tree under construction: its nodes, their sizes, and the first element of every
    /// node but the first (the separators between them).
    struct Level {
        var nodes: [AnyObject] = []
        var sizes: [Int] = []
        var boundaries: [Element] = []
    }

    /// The sizes of `count` items split evenly into groups of at most `capacity`.
    private static func groupSizes(_ count: Int, capacity: Int) -> [Int] {
        let groups = (count + capacity - 1) / capacity
        return (0..<groups).map { count / groups + ($0 < count % groups ? 1 : 0) }
    }

    private func buildLeaves(_ all: ContiguousArray<Element>) -> Level {
        var level = Level()
        var start = 0
        all.withUnsafeBufferPointer { source in
            for size in Self.groupSizes(all.count, capacity: leafCapacity) {
                let leaf = CountedBTreeLeaf<Element>.make(capacity: leafCapacity)
                if let base = source.baseAddress {
                    leaf.elements.initialize(from: base + start, count: size)
                }
                leaf.count = size
                if start > 0 { level.boundaries.append(source[start]) }
                level.nodes.append(leaf)
                level.sizes.append(size)
                start += size
            }
        }
        return level
    }

    private func buildBranches(_ below: Level) -> Level {
        var level = Level()
        var start = 0
        for size in Self.groupSizes(below.nodes.count, capacity: branchCapacity) {
            let inner = CountedBTreeBranch<Element>(capacity: branchCapacity)
            var total = 0
            for offset in 0..<size {
                (inner.children + offset).initialize(to: below.nodes[start + offset])
                inner.counts[offset] = below.sizes[start + offset]
                total += below.sizes[start + offset]
                if offset > 0 { (inner.separators + (offset - 1)).initialize(to: below.boundaries[start + offset - 1]) }
            }
            inner.childCount = size
            inner.total = total
            if start > 0 { level.boundaries.append(below.boundaries[start - 1]) }
            level.nodes.append(inner)
            level.sizes.append(total)
            start += size
        }
        return level
    }
}

extension CountedBTree where Element: Comparable {
    /// Creates a tree ordered by `<` from elements already in strictly increasing order.
    ///
    /// - Throws: ``FetchKitError/invalidValue(_:)`` when an element is not greater than the one before it.
    /// - Complexity: O(n).
    @inlinable
    public convenience init<S: Sequence<Element>>(
        sorted elements: S, leafCapacity: Int = CountedBTree.defaultLeafCapacity,
        branchCapacity: Int = CountedBTree.defaultBranchCapacity
    ) throws {
        try self.init(
            sorted: elements, leafCapacity: leafCapacity, branchCapacity: branchCapacity, areInIncreasingOrder: <)
    }
}
