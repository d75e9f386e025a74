/// Structural checks for tests.
extension ResultsTree {
    /// A description of the first broken invariant (counts, separators, fill, equal depth), or `nil`.
    ///
    /// - Complexity: O(n).
    func invariantViolation(
        separator: (Element) -> Separator, isEqual: (Separator, Separator) -> Bool
    ) -> String? {
        var leafDepth: Int?
        func check(_ node: Node, depth: Int, isRoot: Bool) -> String? {
            if node.isLeaf {
                if node.total != node.elements.count { return "leaf total \(node.total) != \(node.elements.count)" }
                if node.elements.count > Self.leafCapacity { return "leaf over capacity" }
                if !isRoot && node.elements.isEmpty { return "empty leaf below the root" }
                if let expected = leafDepth, expected != depth { return "leaves at depths \(expected) and \(depth)" }
                leafDepth = depth
                return nil
            }
            if node.branches.count > Self.branchCapacity { return "branch over capacity" }
            if node.total != node.branches.reduce(0, { $0 + $1.count }) {
                return "branch total \(node.total) != sum of counts"
            }
            for (index, branch) in node.branches.enumerated() {
                let child = branch.child
                if branch.count != child.total { return "count of child \(index) is stale" }
                if child.total == 0 { return "empty child \(index)" }
                if !isEqual(branch.last, child.lastSeparator(separator)) {
                    return "separator of child \(index) is stale"
                }
                if let problem = check(child, depth: depth + 1, isRoot: false) { return problem }
            }
            return nil
        }
        return check(root, depth: 0, isRoot: true)
    }
}

extension ResultsTree where Element == Separator, Element: Equatable {
    /// The invariant check of a tree whose elements are their own separators.
    func invariantViolation() -> String? { invariantViolation(separator: { $0 }, isEqual: ==) }

    /// Inserts an element that is its own separator.
    mutating func insert(_ element: Element, at index: Int) { insert(element, at: index, separator: { $0 }) }

    /// Removes an element that is its own separator.
    @discardableResult
    mutating func remove(at index: Int) -> Element { remove(at: index, separator: { $0 }) }

    /// Replaces an element that is its own separator.
    mutating func replace(at index: Int, with element: Element) { replace(at: index, with: element, separator: { $0 }) }
}
