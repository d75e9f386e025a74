extension CountedBTree {
    /// Every broken structural invariant, described; empty for a sound tree. For tests.
    ///
    /// Checks node sizes against capacities, subtree counts, leaf depth, element order inside and
    /// across leaves, and that each separator lies between its neighbouring subtrees.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var previous: Element?
        let less = areInIncreasingOrder

        /// Visits a subtree in order; returns its size and its first and last elements.
        func visit(_ node: AnyObject, level: Int, isRoot: Bool, path: String) -> (Int, Element?, Element?) {
            if level == 0 {
                let leaf = leaf(node)
                if leaf.count > leafCapacity { problems.append("\(path): leaf holds \(leaf.count) > capacity") }
                if !isRoot && leaf.count == 0 { problems.append("\(path): empty leaf") }
                for index in 0..<leaf.count {
                    let element = leaf.elements[index]
                    if let previous, !less(previous, element) {
                        problems.append("\(path): element \(index) is not greater than its predecessor")
                    }
                    previous = element
                }
                return (leaf.count, leaf.count > 0 ? leaf.elements[0] : nil,
                        leaf.count > 0 ? leaf.elements[leaf.count - 1] : nil)
            }
            let inner = branch(node)
            if inner.childCount > branchCapacity || inner.childCount < (isRoot ? 2 : 1) {
                problems.append("\(path): branch has \(inner.childCount) children")
            }
            var total = 0
            var first: Element?
            var last: Element?
            for index in 0..<inner.childCount {
                let (size, low, high) = visit(inner.children[index], level: level - 1, isRoot: false,
                                              path: path + "/\(index)")
                if size != inner.counts[index] {
                    problems.append("\(path): child \(index) counts \(inner.counts[index]), holds \(size)")
                }
                if index > 0, let low, less(low, inner.separators[index - 1]) {
                    problems.append("\(path): child \(index) starts before separator \(index - 1)")
                }
                if index < inner.childCount - 1, let high, !less(high, inner.separators[index]) {
                    problems.append("\(path): child \(index) ends at or after separator \(index)")
                }
                total += size
                if first == nil { first = low }
                last = high ?? last
            }
            if total != inner.total { problems.append("\(path): branch total \(inner.total), holds \(total)") }
            return (total, first, last)
        }
        let (size, _, _) = visit(root, level: height, isRoot: true, path: "root")
        if size != count { problems.append("count \(count), tree holds \(size)") }
        return problems
    }
}
