/// A node of a ``ResultsTree``: a leaf holds elements, an inner node holds branches — a child with the
/// number of elements under it and the separator of its last element (what a search compares against) —
/// in one array, so a search reads one buffer per level and copying a node makes two allocations.
///
/// `@unchecked Sendable`: a node is mutated only through a ``ResultsTree`` that has just checked, with
/// `isKnownUniquelyReferenced`, that no other tree or snapshot shares it (copy-on-write, as `Array`'s
/// storage is); a shared node is only ever read. For the same reason its properties skip the runtime's
/// exclusivity checks (`@exclusivity(unchecked)`): the tree's code never overlaps two accesses to one
/// node, and the checks were a tenth of an incremental change's instructions.
final class ResultsTreeNode<Element, Separator>: @unchecked Sendable {
    /// One child of an inner node.
    struct Branch {
        var child: ResultsTreeNode
        /// The number of elements under the child.
        var count: Int
        /// The separator of the last element under the child.
        var last: Separator
    }

    /// A leaf's elements, in order (empty in an inner node).
    @exclusivity(unchecked) var elements: [Element]
    /// An inner node's children, in order (empty in a leaf).
    @exclusivity(unchecked) var branches: [Branch]
    /// The number of elements under this node.
    @exclusivity(unchecked) var total: Int

    /// A leaf holding `elements`.
    init(elements: [Element]) {
        self.elements = elements
        self.branches = []
        self.total = elements.count
    }

    /// An inner node over `branches`, none of them empty.
    init(branches: [Branch]) {
        self.elements = []
        self.branches = branches
        self.total = branches.reduce(0) { $0 + $1.count }
    }

    /// An inner node over `children`, none of them empty.
    convenience init(children: [ResultsTreeNode<Element, Separator>], _ separator: (Element) -> Separator) {
        self.init(branches: children.map { Branch(child: $0, count: $0.total, last: $0.lastSeparator(separator)) })
    }

    private init(copying node: ResultsTreeNode<Element, Separator>) {
        // Element by element in this (specialised) code, with room for one more: handing the array over
        // and letting a later write copy it goes through the runtime's generic copy, one call per element.
        var elements: [Element] = []
        elements.reserveCapacity(node.elements.count + 1)
        for element in node.elements { elements.append(element) }
        var branches: [Branch] = []
        branches.reserveCapacity(node.branches.count + 1)
        for branch in node.branches { branches.append(branch) }
        self.elements = elements
        self.branches = branches
        total = node.total
    }

    /// A node with the same contents, sharing the children.
    ///
    /// - Complexity: O(*b*) for the node's width *b*.
    func copy() -> ResultsTreeNode<Element, Separator> { ResultsTreeNode(copying: self) }

    /// `true` for a leaf.
    var isLeaf: Bool { branches.isEmpty }

    /// The number of entries of this node itself: elements of a leaf, children of an inner node.
    var width: Int { isLeaf ? elements.count : branches.count }

    /// The separator of the last element under this node, which must not be empty.
    func lastSeparator(_ separator: (Element) -> Separator) -> Separator {
        isLeaf ? separator(elements[elements.count - 1]) : branches[branches.count - 1].last
    }

    /// The child that holds position `index` and the position within it; `index == total` selects the end
    /// of the last child (where an append goes).
    func child(containing index: Int) -> (child: Int, offset: Int) {
        var offset = index
        var child = 0
        let last = branches.count - 1
        while child < last && offset >= branches[child].count {
            offset -= branches[child].count
            child += 1
        }
        return (child, offset)
    }

    /// Makes child `index` uniquely referenced by this node (copying it if it is shared).
    func uniqueChild(_ index: Int) {
        if !isKnownUniquelyReferenced(&branches[index].child) { branches[index].child = branches[index].child.copy() }
    }

    /// Refreshes the count and last separator of child `index` after it changed.
    func refresh(child index: Int, _ separator: (Element) -> Separator) {
        let child = branches[index].child
        branches[index].count = child.total
        guard child.total > 0 else { return }
        branches[index].last = child.lastSeparator(separator)
    }
}
