/// A sorted set of unique elements that also knows every element's position: a counted B-tree
/// (order-statistic tree). Every node keeps the number of elements under it, so ranks are O(log n) too.
///
/// A results controller keeps its rows here ordered by ``SortKey`` (sort values, then primary key) and
/// turns a changed row into a move in O(log n):
///
/// ```swift
/// let tree = CountedBTree<SortKey>()
/// tree.insert(order.key(row))
/// let old = tree.remove(oldKey)?.rank      // where the row was
/// let new = tree.insert(newKey).rank       // where it is now
/// tree.element(at: 0)                      // the first row's key
/// ```
///
/// Elements are ordered by a strict weak order; two elements that compare equal (neither is less) are
/// the same element, so inserting one that is already present changes nothing. It is a B+ tree:
/// elements live in leaves of up to ``leafCapacity``, inner nodes hold up to ``branchCapacity``
/// children with their counts. It is a reference type: copies share the tree.
public final class CountedBTree<Element> {
    /// The order: `true` when the first element comes before the second.
    @usableFromInline let areInIncreasingOrder: (Element, Element) -> Bool
    /// A `CountedBTreeLeaf` when `height` is 0, else a `CountedBTreeBranch`.
    @usableFromInline var root: AnyObject
    /// The number of branch levels above the leaves.
    @usableFromInline var height = 0
    /// The number of elements.
    @usableFromInline var storedCount = 0
    /// Bumped by every mutation, so iterators can tell the tree changed under them.
    @usableFromInline var mutationCount = 0

    /// The most elements a leaf holds.
    public let leafCapacity: Int
    /// The most children an inner node holds.
    public let branchCapacity: Int

    /// The leaf capacity used unless one is given, chosen by measurement (`fetchkit-benchmarks btree`).
    public static var defaultLeafCapacity: Int { 64 }
    /// The branch capacity used unless one is given, chosen by measurement.
    public static var defaultBranchCapacity: Int { 32 }

    /// Creates an empty tree ordered by `areInIncreasingOrder`.
    ///
    /// Capacities are clamped to at least 4 children and 4 elements.
    public init(
        leafCapacity: Int = CountedBTree.defaultLeafCapacity, branchCapacity: Int = CountedBTree.defaultBranchCapacity,
        areInIncreasingOrder: @escaping (Element, Element) -> Bool
    ) {
        self.leafCapacity = Swift.max(4, leafCapacity)
        self.branchCapacity = Swift.max(4, branchCapacity)
        self.areInIncreasingOrder = areInIncreasingOrder
        self.root = CountedBTreeLeaf<Element>.make(capacity: self.leafCapacity)
    }

    /// The number of elements.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { storedCount }

    /// `true` when the tree holds no element.
    ///
    /// - Complexity: O(1).
    @inlinable public var isEmpty: Bool { storedCount == 0 }

    /// Removes every element.
    ///
    /// - Complexity: O(n).
    public func removeAll() {
        root = CountedBTreeLeaf<Element>.make(capacity: leafCapacity)
        height = 0
        storedCount = 0
        mutationCount &+= 1
    }

    @inlinable
    func leaf(_ node: AnyObject) -> CountedBTreeLeaf<Element> {
        unsafeDowncast(node, to: CountedBTreeLeaf<Element>.self)
    }

    @inlinable
    func branch(_ node: AnyObject) -> CountedBTreeBranch<Element> {
        unsafeDowncast(node, to: CountedBTreeBranch<Element>.self)
    }

    /// The number of elements under `node`, a node at `level` (0: leaf).
    @inlinable
    func size(of node: AnyObject, level: Int) -> Int {
        level == 0 ? leaf(node).count : branch(node).total
    }
}

extension CountedBTree where Element: Comparable {
    /// Creates an empty tree ordered by `<`.
    ///
    /// Inlinable, so the comparison closure is specialized for `Element` where the tree is made.
    @inlinable
    public convenience init(
        leafCapacity: Int = CountedBTree.defaultLeafCapacity, branchCapacity: Int = CountedBTree.defaultBranchCapacity
    ) {
        self.init(leafCapacity: leafCapacity, branchCapacity: branchCapacity, areInIncreasingOrder: <)
    }
}

// MARK: - Lookups

extension CountedBTree {
    /// Where a search for an element ends: the number of elements before the leaf, the leaf, and the
    /// element's lower-bound position in it.
    @usableFromInline
    struct Probe {
        @usableFromInline let before: Int
        @usableFromInline let leaf: CountedBTreeLeaf<Element>
        @usableFromInline let position: Int

        @inlinable
        init(before: Int, leaf: CountedBTreeLeaf<Element>, position: Int) {
            self.before = before
            self.leaf = leaf
            self.position = position
        }
    }

    /// Descends to the leaf that holds `element` if present; `upper` selects the upper bound in it.
    @inlinable
    func probe(_ element: Element, upper: Bool = false) -> Probe {
        let less = areInIncreasingOrder
        var node = root
        var before = 0
        var level = height
        while level > 0 {
            let inner = branch(node)
            let index = inner.childIndex(for: element, less)
            before &+= inner.elementsBefore(index)
            node = inner.children[index]
            level &-= 1
        }
        let leaf = leaf(node)
        let position = upper ? leaf.upperBound(element, less) : leaf.lowerBound(element, less)
        return Probe(before: before, leaf: leaf, position: position)
    }

    /// The position of `element` in the order, or `nil` when it is not in the tree.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func rank(of element: Element) -> Int? {
        let probe = probe(element)
        guard probe.position < probe.leaf.count,
            !areInIncreasingOrder(element, probe.leaf.elements[probe.position])
        else { return nil }
        return probe.before &+ probe.position
    }

    /// The stored element equal to `element` (useful when elements carry more than their key), or `nil`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func find(_ element: Element) -> Element? {
        let probe = probe(element)
        guard probe.position < probe.leaf.count else { return nil }
        let found = probe.leaf.elements[probe.position]
        return areInIncreasingOrder(element, found) ? nil : found
    }

    /// `true` when the tree holds an element equal to `element`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func contains(_ element: Element) -> Bool {
        rank(of: element) != nil
    }

    /// The number of elements less than `element`: the rank it has or would have once inserted.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func lowerBound(of element: Element) -> Int {
        let probe = probe(element)
        return probe.before &+ probe.position
    }

    /// The number of elements not greater than `element`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func upperBound(of element: Element) -> Int {
        let probe = probe(element, upper: true)
        return probe.before &+ probe.position
    }

    /// The element at position `rank` in the order, or `nil` when `rank` is outside `0..<count`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func element(at rank: Int) -> Element? {
        guard rank >= 0, rank < storedCount else { return nil }
        var node = root
        var remaining = rank
        var level = height
        while level > 0 {
            let inner = branch(node)
            var index = 0
            while remaining >= inner.counts[index] {
                remaining &-= inner.counts[index]
                index &+= 1
            }
            node = inner.children[index]
            level &-= 1
        }
        return leaf(node).elements[remaining]
    }

    /// The first element, or `nil` when empty.
    ///
    /// - Complexity: O(log n).
    @inlinable public var first: Element? { element(at: 0) }

    /// The last element, or `nil` when empty.
    ///
    /// - Complexity: O(log n).
    @inlinable public var last: Element? { element(at: storedCount - 1) }
}
