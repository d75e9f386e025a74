/// Structural checks for tests.
extension ResultsTree {
    /// A description of the first broken invariant (counts, separators, fill, equal depth), or `nil`.
    ///
    /// - Complexity: O(n).
    func invariantViolation(isEqual: (Element, Element) -> Bool) -> String? {
        var leafDepth: Int?
        func check(_ node: ResultsTreeNode<Element>, depth: Int, isRoot: Bool) -> String? {
            if node.isLeaf {
                if node.total != node.elements.count { return "leaf total \(node.total) != \(node.elements.count)" }
                if node.elements.count > Self.leafCapacity { return "leaf over capacity" }
                if !isRoot && node.elements.isEmpty { return "empty leaf below the root" }
                if let expected = leafDepth, expected != depth { return "leaves at depths \(expected) and \(depth)" }
                leafDepth = depth
                return nil
            }
            if node.children.count > Self.branchCapacity { return "branch over capacity" }
            if node.counts.count != node.children.count || node.lasts.count != node.children.count {
                return "branch arrays of different lengths"
            }
            if node.total != node.counts.reduce(0, +) { return "branch total \(node.total) != sum of counts" }
            for (index, child) in node.children.enumerated() {
                if node.counts[index] != child.total { return "count of child \(index) is stale" }
                if child.total == 0 { return "empty child \(index)" }
                if !isEqual(node.lasts[index], child.last) { return "last element of child \(index) is stale" }
                if let problem = check(child, depth: depth + 1, isRoot: false) { return problem }
            }
            return nil
        }
        return check(root, depth: 0, isRoot: true)
    }
}
