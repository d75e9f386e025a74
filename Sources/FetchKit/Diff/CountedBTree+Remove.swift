extension CountedBTree {
    /// Removes the element equal to `element`.
    ///
    /// - Returns: the removed element and the rank it had, or `nil` when no element is equal.
    /// - Complexity: O(log n).
    @inlinable
    @discardableResult
    public func remove(_ element: Element) -> (element: Element, rank: Int)? {
        guard let removed = remove(element, from: root, level: height) else { return nil }
        storedCount &-= 1
        mutationCount &+= 1
        if height > 0 {
            let top = branch(root)
            if top.childCount == 1 {
                root = top.children.move()
                top.childCount = 0
                height &-= 1
            }
        }
        return removed
    }

    /// Removes the element at position `rank`.
    ///
    /// - Returns: the removed element, or `nil` when `rank` is outside `0..<count`.
    /// - Complexity: O(log n).
    @inlinable
    @discardableResult
    public func remove(at rank: Int) -> Element? {
        guard let element = element(at: rank) else { return nil }
        return remove(element)?.element
    }

    @inlinable
    func remove(_ element: Element, from node: AnyObject, level: Int) -> (element: Element, rank: Int)? {
        if level == 0 {
            let leaf = leaf(node)
            let position = leaf.lowerBound(element, areInIncreasingOrder)
            let count = leaf.count
            let elements = leaf.elements
            guard position < count, !areInIncreasingOrder(element, elements[position]) else { return nil }
            let removed = (elements + position).move()
            (elements + position).moveInitialize(from: elements + (position + 1), count: count &- position &- 1)
            leaf.count = count &- 1
            return (removed, position)
        }
        let inner = branch(node)
        let index = inner.childIndex(for: element, areInIncreasingOrder)
        guard let below = remove(element, from: inner.children[index], level: level &- 1) else { return nil }
        let rank = inner.elementsBefore(index) &+ below.rank
        inner.counts[index] &-= 1
        inner.total &-= 1
        if isUnderfull(inner.children[index], level: level &- 1) {
            rebalance(inner, at: index, childLevel: level &- 1)
        }
        return (below.element, rank)
    }

    /// Whether a node holds fewer than half its capacity of elements (a leaf) or children (a branch).
    @inlinable
    func isUnderfull(_ node: AnyObject, level: Int) -> Bool {
        level == 0 ? leaf(node).count < leafCapacity / 2 : branch(node).childCount < branchCapacity / 2
    }

    /// Refills child `index` of `inner`, which fell below its minimum: borrows from a sibling with
    /// room to spare, or merges with one.
    @inlinable
    func rebalance(_ inner: CountedBTreeBranch<Element>, at index: Int, childLevel: Int) {
        let hasLeft = index > 0
        let hasRight = index < inner.childCount &- 1
        if hasLeft, canLend(inner.children[index &- 1], level: childLevel) {
            borrowFromLeft(inner, at: index, childLevel: childLevel)
        } else if hasRight, canLend(inner.children[index &+ 1], level: childLevel) {
            borrowFromRight(inner, at: index, childLevel: childLevel)
        } else if hasLeft {
            merge(inner, at: index &- 1, childLevel: childLevel)
        } else if hasRight {
            merge(inner, at: index, childLevel: childLevel)
        }
    }

    /// Whether a node can give one element (a leaf) or one child (a branch) and stay at its minimum.
    @inlinable
    func canLend(_ node: AnyObject, level: Int) -> Bool {
        level == 0 ? leaf(node).count > leafCapacity / 2 : branch(node).childCount > branchCapacity / 2
    }

    /// Moves the last element or child of child `index - 1` to the front of child `index`.
    @inlinable
    func borrowFromLeft(_ inner: CountedBTreeBranch<Element>, at index: Int, childLevel: Int) {
        let moved: Int
        if childLevel == 0 {
            let left = leaf(inner.children[index &- 1])
            let target = leaf(inner.children[index])
            let targetElements = target.elements
            (targetElements + 1).moveInitialize(from: targetElements, count: target.count)
            targetElements.moveInitialize(from: left.elements + (left.count - 1), count: 1)
            left.count &-= 1
            target.count &+= 1
            inner.separators[index &- 1] = targetElements[0]
            moved = 1
        } else {
            let left = branch(inner.children[index &- 1])
            let target = branch(inner.children[index])
            let last = left.childCount &- 1
            moved = left.counts[last]
            target.openGap(child: 0, separator: 0)
            target.children.moveInitialize(from: left.children + last, count: 1)
            target.counts[0] = moved
            target.separators.moveInitialize(from: inner.separators + (index - 1), count: 1)
            (inner.separators + (index - 1)).moveInitialize(from: left.separators + (last - 1), count: 1)
            left.childCount = last
            left.total &-= moved
            target.childCount &+= 1
            target.total &+= moved
        }
        inner.counts[index &- 1] &-= moved
        inner.counts[index] &+= moved
    }

    /// Moves the first element or child of child `index + 1` to the end of child `index`.
    @inlinable
    func borrowFromRight(_ inner: CountedBTreeBranch<Element>, at index: Int, childLevel: Int) {
        let moved: Int
        if childLevel == 0 {
            let right = leaf(inner.children[index &+ 1])
            let target = leaf(inner.children[index])
            let rightElements = right.elements
            (target.elements + target.count).moveInitialize(from: rightElements, count: 1)
            rightElements.moveInitialize(from: rightElements + 1, count: right.count &- 1)
            right.count &-= 1
            target.count &+= 1
            inner.separators[index] = rightElements[0]
            moved = 1
        } else {
            let right = branch(inner.children[index &+ 1])
            let target = branch(inner.children[index])
            let end = target.childCount
            moved = right.counts[0]
            (target.children + end).moveInitialize(from: right.children, count: 1)
            target.counts[end] = moved
            (target.separators + (end - 1)).moveInitialize(from: inner.separators + index, count: 1)
            (inner.separators + index).moveInitialize(from: right.separators, count: 1)
            right.closeGap(child: 0, separator: 0)
            right.childCount &-= 1
            right.total &-= moved
            target.childCount = end &+ 1
            target.total &+= moved
        }
        inner.counts[index &+ 1] &-= moved
        inner.counts[index] &+= moved
    }

    /// Merges child `index + 1` into child `index` and removes it with the separator between them.
    @inlinable
    func merge(_ inner: CountedBTreeBranch<Element>, at index: Int, childLevel: Int) {
        if childLevel == 0 {
            let left = leaf(inner.children[index])
            let right = leaf(inner.children[index &+ 1])
            (left.elements + left.count).moveInitialize(from: right.elements, count: right.count)
            left.count &+= right.count
            right.count = 0
            (inner.separators + index).deinitialize(count: 1)
        } else {
            let left = branch(inner.children[index])
            let right = branch(inner.children[index &+ 1])
            let end = left.childCount
            (left.children + end).moveInitialize(from: right.children, count: right.childCount)
            (left.counts + end).moveInitialize(from: right.counts, count: right.childCount)
            (left.separators + (end - 1)).moveInitialize(from: inner.separators + index, count: 1)
            (left.separators + end).moveInitialize(from: right.separators, count: right.childCount &- 1)
            left.childCount = end &+ right.childCount
            left.total &+= right.total
            right.childCount = 0
        }
        inner.counts[index] &+= inner.counts[index &+ 1]
        (inner.children + (index + 1)).deinitialize(count: 1)
        inner.closeGap(child: index &+ 1, separator: index)
        inner.childCount &-= 1
    }
}
