/// In-order iteration, from the start or from any position.
extension ResultsTree: Sequence {
    /// Iterates the elements in order, descending once and then walking leaf by leaf.
    struct Iterator: IteratorProtocol {
        /// The inner nodes above the current leaf, each with the index of the child being walked.
        private var path: [(node: ResultsTreeNode<Element, Separator>, child: Int)] = []
        private var leaf: ResultsTreeNode<Element, Separator>?
        private var position = 0
        private var remaining: Int

        init(_ tree: ResultsTree, from start: Int, count: Int) {
            remaining = count
            guard count > 0 else { return }
            var node = tree.root
            var offset = start
            while !node.isLeaf {
                let (child, within) = node.child(containing: offset)
                path.append((node, child))
                node = node.branches[child].child
                offset = within
            }
            leaf = node
            position = offset
        }

        mutating func next() -> Element? {
            guard remaining > 0, var node = leaf else { return nil }
            if position == node.elements.count {
                // Climb to the first ancestor with a next child, then descend to its first leaf.
                while let top = path.last, top.child + 1 == top.node.branches.count { path.removeLast() }
                guard let top = path.popLast() else { return nil }
                path.append((top.node, top.child + 1))
                node = top.node.branches[top.child + 1].child
                while !node.isLeaf {
                    path.append((node, 0))
                    node = node.branches[0].child
                }
                leaf = node
                position = 0
            }
            remaining -= 1
            position += 1
            return node.elements[position - 1]
        }
    }

    func makeIterator() -> Iterator { Iterator(self, from: 0, count: count) }

    /// The elements at `range` (within `0...count`), in order.
    ///
    /// - Complexity: O(log n) to start, then O(1) amortised per element.
    func elements(in range: Range<Int>) -> Iterator {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ResultsTree range out of bounds")
        return Iterator(self, from: range.lowerBound, count: range.count)
    }

    var underestimatedCount: Int { count }
}
