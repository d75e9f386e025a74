/// A leaf of a ``CountedBTree``: up to its capacity of elements in order, in the same allocation as its
/// header (the element count).
@usableFromInline
final class CountedBTreeLeaf<Element>: ManagedBuffer<Int, Element> {
    /// A new empty leaf with room for `capacity` elements.
    @inlinable
    static func make(capacity: Int) -> CountedBTreeLeaf<Element> {
        unsafeDowncast(CountedBTreeLeaf<Element>.create(minimumCapacity: capacity) { _ in 0 },
                       to: CountedBTreeLeaf<Element>.self)
    }

    deinit {
        withUnsafeMutablePointers { count, elements in _ = elements.deinitialize(count: count.pointee) }
    }

    /// The number of elements.
    @inlinable var count: Int {
        get { header }
        set { header = newValue }
    }

    /// The element storage; valid while the leaf is alive.
    @inlinable var elements: UnsafeMutablePointer<Element> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The first position whose element is not less than `element`.
    @inlinable
    func lowerBound(_ element: Element, _ less: (Element, Element) -> Bool) -> Int {
        let elements = self.elements
        var low = 0
        var high = count
        while low < high {
            let middle = (low &+ high) >> 1
            if less(elements[middle], element) { low = middle &+ 1 } else { high = middle }
        }
        return low
    }

    /// The first position whose element is greater than `element`.
    @inlinable
    func upperBound(_ element: Element, _ less: (Element, Element) -> Bool) -> Int {
        let elements = self.elements
        var low = 0
        var high = count
        while low < high {
            let middle = (low &+ high) >> 1
            if less(element, elements[middle]) { high = middle } else { low = middle &+ 1 }
        }
        return low
    }
}

/// An inner node of a ``CountedBTree``: children (all leaves or all branches), the number of elements
/// under each child, and separators. `separators[i]` is greater than every element under child `i` and
/// no greater than any element under child `i + 1`.
///
/// The buffers hold one child more than the tree's branch capacity, so an insertion may overflow a
/// branch briefly before it splits.
@usableFromInline
final class CountedBTreeBranch<Element> {
    /// The number of children.
    @usableFromInline var childCount = 0
    /// The number of elements under this branch.
    @usableFromInline var total = 0
    /// The children: `CountedBTreeLeaf<Element>` or `CountedBTreeBranch<Element>`, by level.
    @usableFromInline let children: UnsafeMutablePointer<AnyObject>
    /// The number of elements under each child.
    @usableFromInline let counts: UnsafeMutablePointer<Int>
    /// `childCount - 1` separators.
    @usableFromInline let separators: UnsafeMutablePointer<Element>

    /// An empty branch for a tree whose branches hold up to `capacity` children.
    @inlinable
    init(capacity: Int) {
        children = .allocate(capacity: capacity + 1)
        counts = .allocate(capacity: capacity + 1)
        separators = .allocate(capacity: capacity)
    }

    deinit {
        children.deinitialize(count: childCount)
        separators.deinitialize(count: max(0, childCount - 1))
        children.deallocate()
        counts.deallocate()
        separators.deallocate()
    }

    /// The child to descend into for `element`: the number of separators not greater than it.
    @inlinable
    func childIndex(for element: Element, _ less: (Element, Element) -> Bool) -> Int {
        var low = 0
        var high = childCount &- 1
        while low < high {
            let middle = (low &+ high) >> 1
            if less(element, separators[middle]) { high = middle } else { low = middle &+ 1 }
        }
        return low
    }

    /// The number of elements under the children before `index`.
    @inlinable
    func elementsBefore(_ index: Int) -> Int {
        var sum = 0
        for child in 0..<index { sum &+= counts[child] }
        return sum
    }

    /// Opens a gap at `index` in children and counts and at `separatorIndex` in separators.
    @inlinable
    func openGap(child index: Int, separator separatorIndex: Int) {
        let moving = childCount - index
        (children + index + 1).moveInitialize(from: children + index, count: moving)
        (counts + index + 1).moveInitialize(from: counts + index, count: moving)
        let separatorsMoving = childCount - 1 - separatorIndex
        if separatorsMoving > 0 {
            (separators + separatorIndex + 1).moveInitialize(from: separators + separatorIndex, count: separatorsMoving)
        }
    }

    /// Closes the gap left at `index` in children and counts and at `separatorIndex` in separators
    /// (their contents already moved out); `childCount` is the count before the removal.
    @inlinable
    func closeGap(child index: Int, separator separatorIndex: Int) {
        let moving = childCount - index - 1
        (children + index).moveInitialize(from: children + index + 1, count: moving)
        (counts + index).moveInitialize(from: counts + index + 1, count: moving)
        let separatorsMoving = childCount - 2 - separatorIndex
        if separatorsMoving > 0 {
            (separators + separatorIndex).moveInitialize(from: separators + separatorIndex + 1, count: separatorsMoving)
        }
    }
}
