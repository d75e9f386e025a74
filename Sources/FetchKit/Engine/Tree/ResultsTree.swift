/// A persistent sequence in a counted B+ tree: access, insertion and removal by position in O(log n), and
/// binary search by the order its elements are kept in. It is the storage of a ``ResultsSnapshot``.
///
/// Copies share structure: mutating a copy copies only the nodes on the path it changes, so the snapshot a
/// delegate holds stays valid, unchanged, while the controller applies the next change in O(log n).
///
/// ```swift
/// var tree = ResultsTree<Int, Int>([10, 20, 30], separator: { $0 })
/// let before = tree
/// tree.insert(25, at: tree.partitioningIndex { $0 >= 25 }, separator: { $0 })   // at 2
/// Array(tree)     // [10, 20, 25, 30]
/// Array(before)   // [10, 20, 30]
/// ```
///
/// Every node knows how many elements are under it (the counts of an order-statistic tree) and an inner
/// node knows the *separator* of the last element under each child: a small, cheaply compared summary of
/// the element (a results snapshot uses the row's ``SortKey``). A search compares O(log n) separators and
/// then O(log b) elements of one leaf. Mutations take the function that makes an element's separator.
struct ResultsTree<Element, Separator> {
    /// The most elements a leaf holds: more when they are small (a handle), since copying a leaf is then
    /// a plain copy of bytes.
    static var leafCapacity: Int { MemoryLayout<Element>.stride <= 4 ? 64 : 32 }
    /// The most children an inner node holds.
    static var branchCapacity: Int { 32 }

    /// The root: a leaf while the tree holds at most ``leafCapacity`` elements.
    var root: ResultsTreeNode<Element, Separator>

    /// An empty tree.
    init() {
        root = ResultsTreeNode(elements: [])
    }

    /// The tree under `root`, which it shares: a change copies it first, as it copies any node a snapshot
    /// shares (every empty tree of a kind can share one empty root).
    init(sharing root: ResultsTreeNode<Element, Separator>) {
        self.root = root
    }

    /// A tree of `elements`, in their order.
    ///
    /// Leaves are built full: a change copies the leaf it touches anyway (the tree is persistent), and splitting a
    /// full one costs about the same, while room left in every leaf would cost a quarter more memory per row.
    /// Inner nodes, a thirty-second as many, are built three-quarters full.
    /// - Complexity: O(n).
    init(_ elements: some Sequence<Element>, separator: (Element) -> Separator) {
        let all = Array(elements)
        var level = Self.evenChunks(all.count, fill: Self.leafCapacity).map {
            ResultsTreeNode<Element, Separator>(elements: Array(all[$0]))
        }
        guard !level.isEmpty else {
            root = ResultsTreeNode(elements: [])
            return
        }
        while level.count > 1 {
            let children = level
            level = Self.evenChunks(children.count, fill: Self.branchCapacity * 3 / 4).map {
                ResultsTreeNode(children: Array(children[$0]), separator)
            }
        }
        root = level[0]
    }

    /// `0..<count` cut into the fewest ranges of at most `fill`, of sizes differing by at most one.
    private static func evenChunks(_ count: Int, fill: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let chunks = (count + fill - 1) / fill
        return (0..<chunks).map { count * $0 / chunks..<count * ($0 + 1) / chunks }
    }

    /// The number of elements.
    ///
    /// - Complexity: O(1).
    var count: Int { root.total }

    /// `true` when the tree holds no element.
    var isEmpty: Bool { root.total == 0 }

    /// The element at `index`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log n).
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "ResultsTree index out of range")
        var node = root
        var offset = index
        while !node.isLeaf {
            let (child, within) = node.child(containing: offset)
            node = node.branches[child].child
            offset = within
        }
        return node.elements[offset]
    }

    /// The last element, or `nil` when empty.
    ///
    /// - Complexity: O(log n).
    var last: Element? { isEmpty ? nil : self[count - 1] }

    /// The first position whose element is in the second half of a partition, or ``count`` when none is.
    ///
    /// The tree must be partitioned: every element in the first half comes before every one in the second.
    /// `separatorIsInSecondHalf` decides it from an element's separator (inner nodes), `isInSecondHalf` from
    /// the element (the last leaf); they must agree. For a sorted tree, `{ !($0 < target) }` on both finds
    /// the lower bound.
    /// - Complexity: O(log n) separator and element predicate calls.
    func partitioningIndex(
        separator separatorIsInSecondHalf: (Separator) -> Bool, element isInSecondHalf: (Element) -> Bool
    ) -> Int {
        guard let (leaf, before) = leaf(separator: separatorIsInSecondHalf) else { return count }
        return before + leaf.elements.partitionPoint(where: isInSecondHalf)
    }

    /// The first position and element in the second half of a partition (as
    /// ``partitioningIndex(separator:element:)`` finds it), or `nil` when no element is.
    ///
    /// - Complexity: O(log n) separator and element predicate calls.
    func partitioningElement(
        separator separatorIsInSecondHalf: (Separator) -> Bool, element isInSecondHalf: (Element) -> Bool
    ) -> (index: Int, element: Element)? {
        guard let (leaf, before) = leaf(separator: separatorIsInSecondHalf) else { return nil }
        let low = leaf.elements.partitionPoint(where: isInSecondHalf)
        return low < leaf.elements.count ? (before + low, leaf.elements[low]) : nil
    }

    /// The leaf whose last element is the first in the second half of a partition decided by separators,
    /// with the number of elements before it; `nil` when no separator is in the second half.
    private func leaf(separator separatorIsInSecondHalf: (Separator) -> Bool) -> (Node, before: Int)? {
        var node = root
        var before = 0
        while !node.isLeaf {
            // The first child whose last element is in the second half holds the boundary.
            let branches = node.branches
            let child = branches.partitionPoint { separatorIsInSecondHalf($0.last) }
            if child == branches.count { return nil }
            for index in 0..<child { before += branches[index].count }
            node = branches[child].child
        }
        return (node, before)
    }
}

extension ResultsTree where Element: Equatable {
    /// The position of `element`, found by separators alone down to its leaf and then by equality there, or
    /// `nil` when that leaf does not hold it.
    ///
    /// `separatorIsInSecondHalf` must be `true` exactly for the separators of elements at or after
    /// `element` (for a sorted tree, `{ !($0 < key) }` with the element's own key), so no element but
    /// those of one leaf is ever read: with elements that are handles to rows elsewhere, no row is.
    /// - Complexity: O(log n) separator predicate calls and O(b) equality tests for a leaf of width b.
    func index(of element: Element, separator separatorIsInSecondHalf: (Separator) -> Bool) -> Int? {
        guard let (leaf, before) = leaf(separator: separatorIsInSecondHalf) else { return nil }
        return leaf.elements.firstIndex(of: element).map { before + $0 }
    }
}

extension ResultsTree where Element == Separator {
    /// A tree whose elements are their own separators.
    init(_ elements: some Sequence<Element>) { self.init(elements, separator: { $0 }) }

    /// The lower-bound style search on a tree whose elements are their own separators.
    func partitioningIndex(where isInSecondHalf: (Element) -> Bool) -> Int {
        partitioningIndex(separator: isInSecondHalf, element: isInSecondHalf)
    }
}

extension ResultsTree: Sendable where Element: Sendable, Separator: Sendable {}
