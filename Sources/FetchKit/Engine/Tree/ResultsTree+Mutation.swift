/// Insertion, removal and replacement by position. Each first makes the path it changes uniquely owned
/// (copy-on-write), so other copies of the tree never see the change; each takes the function that makes an
/// element's separator, to refresh the separators on that path.
extension ResultsTree {
    typealias Node = ResultsTreeNode<Element, Separator>

    /// Inserts `element` at `index` (in `0...count`).
    ///
    /// - Complexity: O(log n).
    mutating func insert(_ element: Element, at index: Int, separator: (Element) -> Separator) {
        precondition(index >= 0 && index <= count, "ResultsTree insertion index out of range")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        if let right = Self.insert(element, at: index, into: root, separator) {
            root = Node(children: [root, right], separator)
        }
    }

    /// Removes and returns the element at `index` (in `0..<count`).
    ///
    /// - Complexity: O(log n).
    @discardableResult
    mutating func remove(at index: Int, separator: (Element) -> Separator) -> Element {
        precondition(index >= 0 && index < count, "ResultsTree removal index out of range")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let removed = Self.remove(at: index, from: root, separator)
        while !root.isLeaf && root.branches.count == 1 { root = root.branches[0].child }
        return removed
    }

    /// Replaces the element at `index` (in `0..<count`) with `element`, which must keep the tree's order.
    ///
    /// - Complexity: O(log n).
    mutating func replace(at index: Int, with element: Element, separator: (Element) -> Separator) {
        precondition(index >= 0 && index < count, "ResultsTree index out of range")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        var node = root
        var offset = index
        while !node.isLeaf {
            let (child, within) = node.child(containing: offset)
            node.uniqueChild(child)
            if within == node.branches[child].count - 1 { node.branches[child].last = separator(element) }
            node = node.branches[child].child
            offset = within
        }
        node.elements[offset] = element
    }

    /// Inserts into `node` (uniquely referenced); returns the new right sibling when `node` split.
    private static func insert(
        _ element: Element, at index: Int, into node: Node, _ separator: (Element) -> Separator
    ) -> Node? {
        node.total += 1
        if node.isLeaf {
            node.elements.insert(element, at: index)
            guard node.elements.count > leafCapacity else { return nil }
            let half = node.elements.count / 2
            let right = Node(elements: Array(node.elements[half...]))
            node.elements.removeSubrange(half...)
            node.total = node.elements.count
            return right
        }
        let (child, offset) = node.child(containing: index)
        node.uniqueChild(child)
        let split = insert(element, at: offset, into: node.branches[child].child, separator)
        node.refresh(child: child, separator)
        guard let split else { return nil }
        node.branches.insert(
            Node.Branch(child: split, count: split.total, last: split.lastSeparator(separator)), at: child + 1)
        guard node.branches.count > branchCapacity else { return nil }
        let half = node.branches.count / 2
        let right = Node(branches: Array(node.branches[half...]))
        node.branches.removeSubrange(half...)
        node.total -= right.total
        return right
    }

    /// Removes from `node` (uniquely referenced), rebalancing a child that fell below a quarter full.
    private static func remove(at index: Int, from node: Node, _ separator: (Element) -> Separator) -> Element {
        node.total -= 1
        if node.isLeaf { return node.elements.remove(at: index) }
        let (child, offset) = node.child(containing: index)
        node.uniqueChild(child)
        let removed = remove(at: offset, from: node.branches[child].child, separator)
        node.refresh(child: child, separator)
        if node.branches[child].count == 0 && node.branches.count > 1 {
            node.branches.remove(at: child)
            return removed
        }
        let minimum = node.branches[child].child.isLeaf ? leafCapacity / 4 : branchCapacity / 4
        if node.branches[child].child.width < minimum && node.branches.count > 1 {
            rebalance(node, at: child, separator)
        }
        return removed
    }

    /// Merges child `index` of `node` with a neighbour, splitting the result in two when it is too wide.
    private static func rebalance(_ node: Node, at index: Int, _ separator: (Element) -> Separator) {
        let left = index > 0 ? index - 1 : index
        let right = left + 1
        node.uniqueChild(left)
        node.uniqueChild(right)
        let a = node.branches[left].child
        let b = node.branches[right].child
        let capacity: Int
        if a.isLeaf {
            a.elements.append(contentsOf: b.elements)
            capacity = leafCapacity
        } else {
            a.branches.append(contentsOf: b.branches)
            capacity = branchCapacity
        }
        a.total += b.total
        guard a.width > capacity else {
            node.branches.remove(at: right)
            node.refresh(child: left, separator)
            return
        }
        let half = a.width / 2
        let second: Node
        if a.isLeaf {
            second = Node(elements: Array(a.elements[half...]))
            a.elements.removeSubrange(half...)
        } else {
            second = Node(branches: Array(a.branches[half...]))
            a.branches.removeSubrange(half...)
        }
        a.total -= second.total
        node.branches[right].child = second
        node.refresh(child: left, separator)
        node.refresh(child: right, separator)
    }
}
