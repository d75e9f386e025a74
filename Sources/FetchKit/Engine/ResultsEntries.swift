/// A snapshot's rows and objects in order: a persistent ``ResultsTree`` of 4-byte handles into append-only
/// storage that every snapshot of a controller shares.
///
/// Copying a tree node (what a change to a persistent tree does on its path) then moves plain integers: it
/// never touches the rows themselves, whose reference counts would otherwise cost a cache miss each. A row
/// that leaves the results stays in the storage until ``isWasteful`` says to compact it.
///
/// When `Object` is ``Row`` the row is stored once, as the object.
struct ResultsEntries<Object: Sendable>: Sendable {
    /// The handles, in order, with the ``SortKey`` of the last row under each inner node's child.
    private(set) var tree: ResultsTree<UInt32, SortKey>
    private var storage: EntryStorage<Object>

    /// No entries.
    init() {
        tree = ResultsTree(sharing: emptyHandles)
        storage = EntryStorage()
    }

    /// `entries`, in their order; `separator` makes a row's sort key.
    ///
    /// - Complexity: O(n).
    init(_ entries: some Sequence<ResultsEntry<Object>>, separator: (Row) -> SortKey) {
        self.init()
        var handles: [UInt32] = []
        handles.reserveCapacity(entries.underestimatedCount)
        for entry in entries { handles.append(storage.append(entry)) }
        guard !handles.isEmpty else { return }
        let storage = self.storage
        tree = ResultsTree(handles, separator: { separator(storage.row(handle: $0)) })
    }

    /// `rows` and their `objects` (parallel arrays), in their order; `separator` makes a row's sort key.
    /// The arrays are read by index: no entry is made per row (generic code would pay a metadata lookup for
    /// each — a third of a 100,000-row refetch).
    ///
    /// - Complexity: O(n).
    init(rows: [Row], objects: [Object], separator: (Row) -> SortKey) {
        precondition(rows.count == objects.count, "\(rows.count) rows and \(objects.count) objects")
        tree = ResultsTree(sharing: emptyHandles)
        storage = EntryStorage(reservingCapacity: rows.count)
        var handles: [UInt32] = []
        handles.reserveCapacity(rows.count)
        for index in rows.indices { handles.append(storage.append(row: rows[index], object: objects[index])) }
        guard !handles.isEmpty else { return }
        let storage = self.storage
        tree = ResultsTree(handles, separator: { separator(storage.row(handle: $0)) })
    }

    /// The number of entries.
    ///
    /// - Complexity: O(1).
    var count: Int { tree.count }

    /// `true` when there are no entries.
    var isEmpty: Bool { tree.isEmpty }

    /// The number of entries stored, live or not (the handles in use).
    var storedCount: Int { storage.count }

    /// `true` when rows that left hold more storage than half the live ones (and sixteen more): time for
    /// ``compacted(separator:)``.
    ///
    /// The dead rows of a controller are bounded by its live ones, not by a constant: a server's thousands of
    /// small controllers, each rewriting its ten rows several times a second, would otherwise each keep a
    /// thousand dead rows (hundreds of megabytes between them). Compacting copies the live rows, so its cost
    /// stays O(1) amortised per row that left.
    var isWasteful: Bool { storedCount - count > count / 2 + 16 }

    /// The row stored under `handle`.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func row(handle: UInt32) -> Row { storage.row(handle: handle) }

    /// The entry stored under `handle`.
    ///
    /// - Complexity: O(1).
    subscript(handle handle: UInt32) -> ResultsEntry<Object> { storage[handle] }

    /// Every row, in order, without its object: what a diff or the keys need, read straight from the
    /// storage (no entry is made per row, so generic code pays no per-row metadata lookup).
    ///
    /// - Complexity: O(n).
    var rows: [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(count)
        var handles = tree.makeIterator()
        while let handle = handles.next() { rows.append(storage.row(handle: handle)) }
        return rows
    }

    /// The entry at `index` (in `0..<count`).
    ///
    /// - Complexity: O(log n).
    subscript(index: Int) -> ResultsEntry<Object> { self[handle: tree[index]] }

    /// The object of the entry at `index` (in `0..<count`), without its row.
    ///
    /// - Complexity: O(log n).
    func object(at index: Int) -> Object { storage.object(handle: tree[index]) }

    /// The handle of the entry at `index` (in `0..<count`).
    ///
    /// - Complexity: O(log n).
    func handle(at index: Int) -> UInt32 { tree[index] }

    /// The last entry, or `nil` when empty.
    ///
    /// - Complexity: O(log n).
    var last: ResultsEntry<Object>? { tree.last.map { self[handle: $0] } }

    /// The first position whose row is in the second half of a partition (see
    /// ``ResultsTree/partitioningIndex(separator:element:)``), decided by sort keys above the leaves and by
    /// rows within one.
    ///
    /// - Complexity: O(log n).
    func partitioningIndex(separator: (SortKey) -> Bool, row: (Row) -> Bool) -> Int {
        tree.partitioningIndex(separator: separator, element: { row(self.row(handle: $0)) })
    }

    /// The position of the entry stored under `handle`, whose row's sort key is `key`; `nil` when it is
    /// not where that key places it. Reads sort keys above the leaves and handles in one leaf: no row.
    ///
    /// - Complexity: O(log n).
    func index(of handle: UInt32, sortKey key: SortKey) -> Int? {
        tree.index(of: handle, separator: { !($0 < key) })
    }

    /// Inserts `entry` at `index` (in `0...count`); `separator` makes a row's sort key.
    ///
    /// - Returns: the entry's handle.
    /// - Complexity: O(log n).
    @discardableResult
    mutating func insert(_ entry: ResultsEntry<Object>, at index: Int, separator: (Row) -> SortKey) -> UInt32 {
        let handle = storage.append(entry)
        let storage = self.storage
        tree.insert(handle, at: index, separator: { separator(storage.row(handle: $0)) })
        return handle
    }

    /// Removes the entry at `index` (in `0..<count`); its storage stays until compaction.
    ///
    /// - Complexity: O(log n).
    mutating func remove(at index: Int, separator: (Row) -> SortKey) {
        let storage = self.storage
        tree.remove(at: index, separator: { separator(storage.row(handle: $0)) })
    }

    /// The same entries in fresh storage that holds only them (handles change), their rows' values copied
    /// into blocks of their own (``RowBuilder/packing(_:)``): a row kept from a fetch no longer keeps the
    /// values of the rows of its fetch that left.
    ///
    /// - Complexity: O(n).
    func compacted(separator: (Row) -> SortKey) -> ResultsEntries {
        let rows = RowBuilder.packing(self.rows)
        if Object.self == Row.self {
            return ResultsEntries(rows: rows, objects: unsafeBitCast(rows, to: [Object].self), separator: separator)
        }
        var objects: [Object] = []
        objects.reserveCapacity(count)
        var handles = tree.makeIterator()
        while let handle = handles.next() { objects.append(storage.object(handle: handle)) }
        return ResultsEntries(rows: rows, objects: objects, separator: separator)
    }

    /// A description of the first broken invariant of the tree, or `nil`.
    ///
    /// - Complexity: O(n).
    func invariantViolation(separator: (Row) -> SortKey) -> String? {
        tree.invariantViolation(separator: { separator(row(handle: $0)) }, isEqual: ==)
    }
}

/// In-order iteration, from the start or from any position.
extension ResultsEntries: Sequence {
    /// Walks entries in order.
    struct Iterator: IteratorProtocol {
        var handles: ResultsTree<UInt32, SortKey>.Iterator
        let entries: ResultsEntries

        mutating func next() -> ResultsEntry<Object>? { handles.next().map { entries[handle: $0] } }
    }

    func makeIterator() -> Iterator { Iterator(handles: tree.makeIterator(), entries: self) }

    /// The entries at `range` (within `0...count`), in order.
    ///
    /// - Complexity: O(log n) to start, then O(1) amortised per entry.
    func elements(in range: Range<Int>) -> Iterator { Iterator(handles: tree.elements(in: range), entries: self) }

    var underestimatedCount: Int { count }
}

/// The root every empty tree of handles shares (a fetch that finds no row allocates none).
private let emptyHandles = ResultsTreeNode<UInt32, SortKey>(elements: [])
