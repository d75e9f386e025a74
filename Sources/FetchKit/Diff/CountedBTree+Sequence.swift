extension CountedBTree: Sequence {
    /// Walks the elements in order, leaf by leaf.
    ///
    /// The tree must not change while an iterator is in use: the next call to ``next()`` after a
    /// mutation (any `insert`, even of a present element, or `remove` that removed one) stops the program.
    public struct Iterator: IteratorProtocol {
        let tree: CountedBTree
        let expectedMutations: Int
        /// The branches above the current leaf, each with the index of the child being walked.
        var path: [(branch: CountedBTreeBranch<Element>, index: Int)]
        var leaf: CountedBTreeLeaf<Element>
        var position: Int

        init(tree: CountedBTree, rank: Int) {
            self.tree = tree
            expectedMutations = tree.mutationCount
            path = []
            path.reserveCapacity(tree.height)
            var node = tree.root
            var remaining = Swift.min(Swift.max(rank, 0), tree.count)
            for _ in 0..<tree.height {
                let inner = tree.branch(node)
                var index = 0
                while index < inner.childCount - 1, remaining >= inner.counts[index] {
                    remaining -= inner.counts[index]
                    index += 1
                }
                path.append((inner, index))
                node = inner.children[index]
            }
            leaf = tree.leaf(node)
            position = remaining
        }

        /// The next element, or `nil` after the last.
        ///
        /// - Complexity: O(1) amortized.
        public mutating func next() -> Element? {
            precondition(tree.mutationCount == expectedMutations, "a CountedBTree was mutated while being iterated")
            while position >= leaf.count {
                guard advanceLeaf() else { return nil }
            }
            defer { position += 1 }
            return leaf.elements[position]
        }

        /// Moves to the first element of the next leaf; `false` after the last leaf.
        private mutating func advanceLeaf() -> Bool {
            var depth = path.count
            while depth > 0, path[depth - 1].index + 1 >= path[depth - 1].branch.childCount {
                depth -= 1
            }
            guard depth > 0 else { return false }
            path.removeLast(path.count - depth)
            path[depth - 1].index += 1
            var node = path[depth - 1].branch.children[path[depth - 1].index]
            while path.count < tree.height {
                let inner = tree.branch(node)
                path.append((inner, 0))
                node = inner.children[0]
            }
            leaf = tree.leaf(node)
            position = 0
            return true
        }
    }

    /// An iterator over the elements in order.
    ///
    /// - Complexity: O(log n) to start.
    public func makeIterator() -> Iterator {
        Iterator(tree: self, rank: 0)
    }

    /// An iterator over the elements from position `rank` on (none when `rank >= count`).
    ///
    /// - Complexity: O(log n) to start.
    public func makeIterator(from rank: Int) -> Iterator {
        Iterator(tree: self, rank: rank)
    }

    /// The number of elements.
    public var underestimatedCount: Int { count }
}
