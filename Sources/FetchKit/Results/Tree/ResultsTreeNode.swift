/// A node of a ``ResultsTree``: a leaf holds elements, an inner node holds children with the number of
/// elements under each and the separator of the last element under each (what a search compares against).
///
/// `@unchecked Sendable`: a node is mutated only through a ``ResultsTree`` that has just checked, with
/// `isKnownUniquelyReferenced`, that no other tree or snapshot shares it (copy-on-write, as `Array`'s
/// storage is); a shared node is only ever read. For the same reason its properties skip the runtime's
/// exclusivity checks (`@exclusivity(unchecked)`): the tree's code never overlaps two accesses to one
/// node, and the checks were a tenth of an incremental change's instructions.
final class ResultsTreeNode<Element, Separator>: @unchecked Sendable {
    /// A leaf's elements, in order (empty in an inner node).
    @exclusivity(unchecked) var elements: [Element]
    /// An inner node's children, in order (empty in a leaf).
    @exclusivity(unchecked) var children: [ResultsTreeNode<Element, Separator>]
    /// The number of elements under each child.
    @exclusivity(unchecked) var counts: [Int]
    /// The separator of the last element under each child.
    @exclusivity(unchecked) var lasts: [Separator]
    /// The number of elements under this node.
    @exclusivity(unchecked) var total: Int

    /// A leaf holding `elements`.
    init(elements: [Element]) {
        self.elements = elements
        self.children = []
        self.counts = []
        self.lasts = []
        self.total = elements.count
    }

    /// An inner node over `children`, none of them empty.
    init(children: [ResultsTreeNode<Element, Separator>], _ separator: (Element) -> Separator) {
        self.elements = []
        self.children = children
        self.counts = children.map(\.total)
        self.lasts = children.map { $0.isLeaf ? separator($0.elements[$0.elements.count - 1]) : $0.lastSeparator }
        self.total = counts.reduce(0, +)
    }

    private init(copying node: ResultsTreeNode<Element, Separator>) {
        elements = node.elements
        children = node.children
        counts = node.counts
        lasts = node.lasts
        total = node.total
    }

    /// A node with the same contents, sharing the children.
    ///
    /// - Complexity: O(*b*) for the node's width *b*.
    func copy() -> ResultsTreeNode<Element, Separator> { ResultsTreeNode(copying: self) }

    /// `true` for a leaf.
    var isLeaf: Bool { children.isEmpty }

    /// The number of entries of this node itself: elements of a leaf, children of an inner node.
    var width: Int { isLeaf ? elements.count : children.count }

    /// The separator of the last element under an inner node, which must not be empty.
    var lastSeparator: Separator { lasts[lasts.count - 1] }

    /// The child that holds position `index` and the position within it; `index == total` selects the end
    /// of the last child (where an append goes).
    func child(containing index: Int) -> (child: Int, offset: Int) {
        var offset = index
        var child = 0
        while child < counts.count - 1 && offset >= counts[child] {
            offset -= counts[child]
            child += 1
        }
        return (child, offset)
    }

    /// Makes child `index` uniquely referenced by this node (copying it if it is shared).
    func uniqueChild(_ index: Int) {
        if !isKnownUniquelyReferenced(&children[index]) { children[index] = children[index].copy() }
    }

    /// Refreshes the count and last separator of child `index` after it changed.
    func refresh(child index: Int, _ separator: (Element) -> Separator) {
        let child = children[index]
        counts[index] = child.total
        guard counts[index] > 0 else { return }
        lasts[index] = child.isLeaf ? separator(child.elements[child.elements.count - 1]) : child.lastSeparator
    }
}
