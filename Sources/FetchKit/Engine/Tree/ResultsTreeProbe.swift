// Compiled only with the BenchmarkHooks trait (FetchKit's own benchmarks enable it): never in an app's build.
#if BenchmarkHooks
    /// The results engine's tree on sort keys alone, without rows, a snapshot or a changeset, so a benchmark
    /// can time one sort-key change — the row's old position, its removal, its new position, its insertion —
    /// against a sorted array.
    ///
    /// The tree is the one a snapshot keeps (``ResultsTree`` of 4-byte handles, with each child's last
    /// ``SortKey`` as its separator); here a handle indexes an array of keys instead of stored rows. A changed
    /// row's new key gets a new handle, as the engine's append-only storage gives one.
    @_spi(Benchmarks)
    public struct ResultsTreeProbe: Sendable {
        /// The key of each handle; a change appends one.
        private var keys: [SortKey]
        /// The current handle of each row.
        private var handles: [UInt32]
        private var tree: ResultsTree<UInt32, SortKey>
        /// The version before the last change, when ``keepsPrevious``.
        private var previous: ResultsTree<UInt32, SortKey>?
        /// Whether each change keeps the version before it alive, as a controller keeps the snapshot its
        /// delegate receives as `previous`: the change then copies the nodes on its path instead of editing them.
        public let keepsPrevious: Bool

        /// The most handles a leaf holds.
        public static var leafCapacity: Int { ResultsTree<UInt32, SortKey>.leafCapacity }
        /// The most children an inner node holds.
        public static var branchCapacity: Int { ResultsTree<UInt32, SortKey>.branchCapacity }

        /// A tree of rows whose keys are `keys` (row `i` has `keys[i]`; any order, no two equal).
        ///
        /// - Complexity: O(n log n) to sort the rows, O(n) to build the tree.
        public init(keys: [SortKey], keepsPrevious: Bool) {
            self.keys = keys
            self.keepsPrevious = keepsPrevious
            handles = (0..<keys.count).map { UInt32($0) }
            let sorted = handles.sorted { keys[Int($0)] < keys[Int($1)] }
            tree = ResultsTree(sorted, separator: { keys[Int($0)] })
        }

        /// The number of rows.
        public var count: Int { tree.count }

        /// The key at position `index`.
        ///
        /// - Complexity: O(log n).
        public func key(at index: Int) -> SortKey { keys[Int(tree[index])] }

        /// The position of `row`, found as the engine finds a changed row: by separators down to its leaf, then
        /// by its handle there.
        ///
        /// - Complexity: O(log n).
        public func position(ofRow row: Int) -> Int? {
            let handle = handles[row]
            let key = keys[Int(handle)]
            return tree.index(of: handle, separator: { !($0 < key) })
        }

        /// Row `row` takes `key`, which no other row has: finds its position, removes it, finds the new
        /// position and inserts it there.
        ///
        /// - Returns: the row's position before and after.
        /// - Complexity: O(log n).
        @discardableResult
        public mutating func change(row: Int, to key: SortKey) -> (old: Int, new: Int) {
            if keepsPrevious { previous = tree }
            guard let old = position(ofRow: row) else { preconditionFailure("the tree lost row \(row)") }
            let handle = UInt32(keys.count)
            keys.append(key)
            handles[row] = handle
            let keys = keys
            tree.remove(at: old, separator: { keys[Int($0)] })
            let new = tree.partitioningIndex(separator: { !($0 < key) }, element: { !(keys[Int($0)] < key) })
            tree.insert(handle, at: new, separator: { keys[Int($0)] })
            return (old, new)
        }

        /// The tree's shape: its height, its leaves and inner nodes, and how full the leaves are on average.
        public var shape: (height: Int, leaves: Int, innerNodes: Int, leafFill: Double) {
            var height = 1
            var level = [tree.root]
            var inner = 0
            while let first = level.first, !first.isLeaf {
                inner += level.count
                level = level.flatMap { $0.branches.map(\.child) }
                height += 1
            }
            let fill = Double(count) / Double(max(1, level.count * Self.leafCapacity))
            return (height, level.count, inner, fill)
        }

        /// A description of the first broken invariant (counts, separators, fill, depth), or `nil`.
        public func invariantViolation() -> String? {
            let keys = keys
            return tree.invariantViolation(separator: { keys[Int($0)] }, isEqual: ==)
        }
    }
#endif
