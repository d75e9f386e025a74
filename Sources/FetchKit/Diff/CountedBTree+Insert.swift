extension CountedBTree {
    /// What inserting under a node did: the element's rank within the node, whether it was new, and
    /// the new right sibling when the node split.
    @usableFromInline
    struct Insertion {
        @usableFromInline let rank: Int
        @usableFromInline let inserted: Bool
        @usableFromInline let split: (separator: Element, node: AnyObject)?

        @inlinable
        init(rank: Int, inserted: Bool, split: (separator: Element, node: AnyObject)? = nil) {
            self.rank = rank
            self.inserted = inserted
            self.split = split
        }
    }

    /// Inserts `element` unless an equal one is present.
    ///
    /// - Returns: whether it was inserted, and its rank (that of the equal element when it was not).
    /// - Complexity: O(log n).
    @inlinable
    @discardableResult
    public func insert(_ element: Element) -> (inserted: Bool, rank: Int) {
        let result = insert(element, into: root, level: height)
        // Even a duplicate may have moved an element between leaves (making room), so iterators end.
        mutationCount &+= 1
        guard result.inserted else { return (false, result.rank) }
        storedCount &+= 1
        if let split = result.split {
            let left = root
            let newRoot = CountedBTreeBranch<Element>(capacity: branchCapacity)
            newRoot.children.initialize(to: left)
            newRoot.counts[0] = size(of: left, level: height)
            (newRoot.children + 1).initialize(to: split.node)
            newRoot.counts[1] = size(of: split.node, level: height)
            newRoot.separators.initialize(to: split.separator)
            newRoot.childCount = 2
            newRoot.total = storedCount
            root = newRoot
            height &+= 1
        }
        return (true, result.rank)
    }

    @inlinable
    func insert(_ element: Element, into node: AnyObject, level: Int) -> Insertion {
        if level == 0 { return insert(element, intoLeaf: leaf(node)) }
        let inner = branch(node)
        var index = inner.childIndex(for: element, areInIncreasingOrder)
        if level == 1, leaf(inner.children[index]).count == leafCapacity, makeRoom(in: inner, at: index) {
            index = inner.childIndex(for: element, areInIncreasingOrder)
        }
        let child = inner.children[index]
        let below = insert(element, into: child, level: level &- 1)
        let rank = inner.elementsBefore(index) &+ below.rank
        guard below.inserted else { return Insertion(rank: rank, inserted: false) }
        inner.total &+= 1
        guard let split = below.split else {
            inner.counts[index] &+= 1
            return Insertion(rank: rank, inserted: true)
        }
        inner.counts[index] = size(of: child, level: level &- 1)
        inner.openGap(child: index &+ 1, separator: index)
        (inner.children + (index + 1)).initialize(to: split.node)
        inner.counts[index &+ 1] = size(of: split.node, level: level &- 1)
        (inner.separators + index).initialize(to: split.separator)
        inner.childCount &+= 1
        guard inner.childCount > branchCapacity else { return Insertion(rank: rank, inserted: true) }
        return Insertion(rank: rank, inserted: true, split: splitBranch(inner))
    }

    /// Inserts into a leaf, splitting it when full. A full leaf that grows at either end keeps its
    /// elements together and starts a new leaf with the one element, so ascending or descending runs of
    /// insertions leave full leaves behind; otherwise it splits in half.
    @inlinable
    func insert(_ element: Element, intoLeaf leaf: CountedBTreeLeaf<Element>) -> Insertion {
        let elements = leaf.elements
        let count = leaf.count
        let position = leaf.lowerBound(element, areInIncreasingOrder)
        if position < count, !areInIncreasingOrder(element, elements[position]) {
            return Insertion(rank: position, inserted: false)
        }
        guard count == leafCapacity else {
            (elements + (position + 1)).moveInitialize(from: elements + position, count: count &- position)
            (elements + position).initialize(to: element)
            leaf.count = count &+ 1
            return Insertion(rank: position, inserted: true)
        }
        let right = CountedBTreeLeaf<Element>.make(capacity: leafCapacity)
        let rightElements = right.elements
        let splitAt = position == count ? count : (position == 0 ? 0 : count / 2)
        rightElements.moveInitialize(from: elements + splitAt, count: count &- splitAt)
        right.count = count &- splitAt
        leaf.count = splitAt
        if position < splitAt || splitAt == 0 {
            (elements + (position + 1)).moveInitialize(from: elements + position, count: splitAt &- position)
            (elements + position).initialize(to: element)
            leaf.count = splitAt &+ 1
        } else {
            let at = position &- splitAt
            (rightElements + (at + 1)).moveInitialize(from: rightElements + at, count: right.count &- at)
            (rightElements + at).initialize(to: element)
            right.count &+= 1
        }
        return Insertion(rank: position, inserted: true, split: (rightElements[0], right))
    }

    /// Makes room in full leaf `index` of `inner` by moving its first element to the left neighbour or its
    /// last to the right one, when either has room. Sharing before splitting keeps leaves about 80% full
    /// under random changes instead of about 65%, at the cost of shifting two leaves.
    @inlinable
    func makeRoom(in inner: CountedBTreeBranch<Element>, at index: Int) -> Bool {
        if index > 0, leaf(inner.children[index &- 1]).count < leafCapacity {
            borrowFromRight(inner, at: index &- 1, childLevel: 0)
            return true
        }
        if index < inner.childCount &- 1, leaf(inner.children[index &+ 1]).count < leafCapacity {
            borrowFromLeft(inner, at: index &+ 1, childLevel: 0)
            return true
        }
        return false
    }

    /// Splits an overflowing branch in two halves; returns the promoted separator and the right half.
    @inlinable
    func splitBranch(_ inner: CountedBTreeBranch<Element>) -> (separator: Element, node: AnyObject) {
        let count = inner.childCount
        let keep = count / 2
        let right = CountedBTreeBranch<Element>(capacity: branchCapacity)
        let moving = count &- keep
        right.children.moveInitialize(from: inner.children + keep, count: moving)
        right.counts.moveInitialize(from: inner.counts + keep, count: moving)
        right.separators.moveInitialize(from: inner.separators + keep, count: moving &- 1)
        let promoted = (inner.separators + (keep - 1)).move()
        right.childCount = moving
        inner.childCount = keep
        var rightTotal = 0
        for index in 0..<moving { rightTotal &+= right.counts[index] }
        right.total = rightTotal
        inner.total &-= rightTotal
        return (promoted, right)
    }
}
