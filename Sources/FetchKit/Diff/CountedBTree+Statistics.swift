extension CountedBTree {
    /// The shape and heap footprint of a tree, for tuning and memory budgets.
    public struct StorageStatistics: Sendable, Hashable {
        /// The number of elements.
        public var elementCount: Int
        /// Branch levels above the leaves (0: the root is a leaf).
        public var height: Int
        /// The number of leaves.
        public var leafCount: Int
        /// The number of inner nodes.
        public var branchCount: Int
        /// The bytes the nodes allocate: each allocation's requested size (object header, fields and
        /// buffers at full capacity) plus glibc's 8-byte chunk header, rounded up to 16. Memory that
        /// elements own themselves (such as a long ``SortKey``'s tail) is not included.
        public var allocatedBytes: Int

        /// ``allocatedBytes`` per element (0 when empty).
        public var bytesPerElement: Double {
            elementCount == 0 ? 0 : Double(allocatedBytes) / Double(elementCount)
        }

        /// The average fraction of leaf capacity in use.
        public var leafFill: Double = 0
    }

    /// The tree's shape and node memory.
    ///
    /// - Complexity: O(n / leafCapacity): it visits every node.
    public var storageStatistics: StorageStatistics {
        func chunk(_ bytes: Int) -> Int { (bytes + 8 + 15) / 16 * 16 }
        let stride = MemoryLayout<Element>.stride
        let alignment = MemoryLayout<Element>.alignment
        // A leaf: the object header (16 bytes), the count, then the elements at their alignment.
        let leafBytes = chunk((24 + alignment - 1) / alignment * alignment + leafCapacity * stride)
        // A branch: the object (header, two counts, three pointers) and three buffers.
        let branchBytes = chunk(16 + 5 * 8) + 2 * chunk((branchCapacity + 1) * 8) + chunk(branchCapacity * stride)
        var leaves = 0
        var branches = 0
        func visit(_ node: AnyObject, level: Int) {
            guard level > 0 else {
                leaves += 1
                return
            }
            branches += 1
            let inner = branch(node)
            for index in 0..<inner.childCount { visit(inner.children[index], level: level - 1) }
        }
        visit(root, level: height)
        return StorageStatistics(
            elementCount: count, height: height, leafCount: leaves, branchCount: branches,
            allocatedBytes: leaves * leafBytes + branches * branchBytes,
            leafFill: leaves == 0 ? 0 : Double(count) / Double(leaves * leafCapacity))
    }
}
