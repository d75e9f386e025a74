import FetchKit
import Foundation

/// The incremental path's data structure: one row's sort key changes, and the engine needs the row's old
/// rank, the new rank, and the structure updated. FetchKit's `CountedBTree<SortKey>` against a sorted
/// `ContiguousArray<SortKey>` with binary search and `remove(at:)`/`insert(_:at:)` (memmove), same keys,
/// same run.
///
/// `btree [--rows N] [--changes N] [--runs N] [--baseline-changes N] [--sweep]`
/// - default sizes 100,000 and 1,000,000 rows (`--rows` picks one), keys `(ordering: Double, id)`, then a
///   1,000,000-row run with text keys `(title, id)`;
/// - each change: `rank(of: old)`, `remove(old)`, `insert(new)`, `rank(of: new)` (4 operations), new keys
///   pre-encoded; then as an engine does it, `remove(old)` and `insert(new)`, which return the ranks
///   (2 operations), on the next batch of changes to the same tree; the cost of encoding a key from a
///   fetched `Row` is measured separately;
/// - the sorted array does at most `--baseline-changes` changes per run at 1M rows (200 µs each);
/// - memory: glibc `mallinfo2()` in-use bytes (arena + mmap) before and after building the tree and
///   after the change runs, divided by rows, plus the heap held by keys longer than 23 bytes (their tails,
///   measured when the keys are made); and the tree's own node count × allocation size.
/// `--sweep` times leaf × branch capacities at the largest size instead.
enum BTreeBenchmark {
    struct Options {
        var sizes = [100_000, 1_000_000]
        var changes = 100_000
        var runs = 5
        var baselineChanges: Int?
        var sweep = false

        init(arguments: [String]) {
            func value(_ name: String) -> Int? {
                guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
                return Int(arguments[index + 1])
            }
            if let rows = value("--rows") { sizes = [rows] }
            changes = value("--changes") ?? changes
            runs = max(1, value("--runs") ?? runs)
            baselineChanges = value("--baseline-changes")
            sweep = arguments.contains("--sweep")
        }
    }

    /// One change: row `row` (index into the current-keys table) gets key `key`.
    struct Change {
        let row: Int
        let key: SortKey
    }

    /// The workload for one size: every row's key, the keys sorted, and the changes to apply.
    struct Workload {
        let name: String
        let order: SortKeyOrder
        let keys: [SortKey]
        let sorted: [SortKey]
        let changes: [Change]
        let sampleRows: [Row]
        /// Heap bytes per row that keys longer than 23 bytes keep outside the tree (their tails).
        let tailBytesPerRow: Double

        init(rows: Int, changes count: Int, text: Bool, seed: UInt64) {
            var random = BTreeBenchRandom(seed: seed)
            func value() -> Value {
                if text { return .text(BTreeBenchRandom.title(using: &random)) }
                return .double(Double(UInt64.random(in: 0..<1 << 40, using: &random)) / 1_024)
            }
            let column = text ? "title" : "ordering"
            name = text ? "(title: String, id)" : "(ordering: Double, id)"
            order = SortKeyOrder([.ascending(column)], primaryKey: "id")
            let order = order
            let before = HeapUsage.current()
            keys = (0..<rows).map { order.key(values: [value()], primaryKey: .integer(Int64($0 + 1))) }
            let keysBytes = HeapUsage.current().inUse - before.inUse
            tailBytesPerRow = Double(max(0, keysBytes - rows * MemoryLayout<SortKey>.stride)) / Double(rows)
            sorted = keys.sorted()
            changes = (0..<count).map { _ in
                let row = Int.random(in: 0..<rows, using: &random)
                return Change(row: row, key: order.key(values: [value()], primaryKey: .integer(Int64(row + 1))))
            }
            sampleRows = (0..<10_000).map { index in
                Row([("id", .integer(Int64(index + 1))), (column, value()), ("payload", .text("row \(index)"))])
            }
        }
    }

    static func run(arguments: [String]) {
        let options = Options(arguments: arguments)
        print("== counted B-tree: single-row sort-key change (rank old, remove, insert, rank new) ==")
        print("   leaf capacity \(CountedBTree<SortKey>.defaultLeafCapacity), branch capacity "
              + "\(CountedBTree<SortKey>.defaultBranchCapacity), SortKey \(MemoryLayout<SortKey>.size) bytes inline")
        if options.sweep {
            sweep(rows: options.sizes.max() ?? 1_000_000, options: options)
            return
        }
        for rows in options.sizes {
            let workload = Workload(rows: rows, changes: 2 * options.changes * options.runs, text: false, seed: 0xB7EE)
            measure(workload, rows: rows, options: options)
        }
        let textRows = options.sizes.max() ?? 1_000_000
        let text = Workload(rows: textRows, changes: 2 * options.changes * 3, text: true, seed: 0x7E47)
        var textOptions = options
        textOptions.runs = 3
        measure(text, rows: textRows, options: textOptions)
    }

    /// Times the tree and the sorted array on one workload and prints the report lines.
    static func measure(_ workload: Workload, rows: Int, options: Options) {
        print("\n-- \(rows) rows, key \(workload.name) --")
        verify(workload)
        let encoding = encodingCost(workload)
        print(String(format: "key encoding from a fetched Row (order.key(row)): %.3f µs/key", encoding))

        let baselineChanges = options.baselineChanges ?? (rows > 300_000 ? 2_000 : options.changes)
        // Everything the runs allocate is allocated before the first heap reading, so the deltas are the tree's.
        var array = ContiguousArray(workload.sorted)
        array.withUnsafeMutableBufferPointer { _ in }  // its own buffer now, not one shared with `sorted`
        var treeKeys = workload.keys.map { $0 }
        var arrayKeys = workload.keys.map { $0 }
        var treeSamples = Samples()
        var engineSamples = Samples()
        var arraySamples = Samples()

        let before = HeapUsage.current()
        let clock = ContinuousClock()
        let buildStart = clock.now
        guard let tree = try? CountedBTree(sorted: workload.sorted) else {
            print("error: the workload's keys are not strictly increasing")
            return
        }
        let build = clock.now - buildStart
        let built = HeapUsage.current()
        print(String(format: "bulk build: %.1f ms", milliseconds(build)))
        print("  memory after build: " + memoryLine(tree, before, built, workload))

        var checksum = 0
        // Each run: one batch of changes as 4 operations, the next batch as 2, on the same tree.
        for run in 0..<options.runs {
            let batch = workload.changes[(2 * run * options.changes)..<((2 * run + 1) * options.changes)]
            let start = Stopwatch()
            for change in batch {
                checksum &+= applyToTree(tree, change, current: &treeKeys)
            }
            treeSamples.add(start, count: batch.count)
            let engineBatch = workload.changes[((2 * run + 1) * options.changes)..<((2 * run + 2) * options.changes)]
            let engineStart = Stopwatch()
            for change in engineBatch {
                checksum &+= applyAsEngine(tree, change, current: &treeKeys)
            }
            engineSamples.add(engineStart, count: engineBatch.count)
            let baseline = batch.prefix(baselineChanges)
            let arrayStart = Stopwatch()
            for change in baseline {
                checksum &+= applyToArray(&array, change, current: &arrayKeys)
            }
            arraySamples.add(arrayStart, count: baseline.count)
        }
        let after = HeapUsage.current()
        let changes = options.changes
        print("per change, median of runs (min), thread CPU time | wall-clock time:")
        print("  CountedBTree, 4 operations   " + treeSamples.line + "   \(options.runs) runs × \(changes) changes")
        print("  CountedBTree, 2 operations   " + engineSamples.line + "   remove and insert return the ranks")
        print("  sorted ContiguousArray       " + arraySamples.line
              + "   \(options.runs) runs × \(min(baselineChanges, changes)) changes")
        print(String(format: "  ratio array / tree (4 operations): %.1fx (CPU), %.1fx (wall); tree (4 operations) + key "
                     + "encoding: %.3f µs/change (CPU)", arraySamples.cpuMedian / treeSamples.cpuMedian,
                     arraySamples.wallMedian / treeSamples.wallMedian, treeSamples.cpuMedian + encoding))
        print("  memory after \(2 * options.runs * changes) changes: " + memoryLine(tree, before, after, workload)
              + " [checksum \(checksum & 0xFFFF)]")
    }

    /// One change the way an engine does it: `remove` gives the old rank, `insert` the new one.
    @inline(__always)
    static func applyAsEngine(_ tree: CountedBTree<SortKey>, _ change: Change, current: inout [SortKey]) -> Int {
        guard let oldRank = tree.remove(current[change.row])?.rank else { fatalError("the tree lost a key") }
        let newRank = tree.insert(change.key).rank
        current[change.row] = change.key
        return oldRank &- newRank
    }

    /// One change on the tree: the old rank, remove, insert, the new rank. Returns the ranks' difference.
    @inline(__always)
    static func applyToTree(_ tree: CountedBTree<SortKey>, _ change: Change, current: inout [SortKey]) -> Int {
        let old = current[change.row]
        guard let oldRank = tree.rank(of: old) else { fatalError("the tree lost a key") }
        tree.remove(old)
        tree.insert(change.key)
        guard let newRank = tree.rank(of: change.key) else { fatalError("the tree lost a key") }
        current[change.row] = change.key
        return oldRank &- newRank
    }

    /// The same change on a sorted array: binary search, `remove(at:)`, binary search, `insert(_:at:)`.
    @inline(__always)
    static func applyToArray(_ array: inout ContiguousArray<SortKey>, _ change: Change, current: inout [SortKey]) -> Int {
        let old = current[change.row]
        let oldRank = lowerBound(array, old)
        guard oldRank < array.count, array[oldRank] == old else { fatalError("the array lost a key") }
        array.remove(at: oldRank)
        let newRank = lowerBound(array, change.key)
        array.insert(change.key, at: newRank)
        current[change.row] = change.key
        return oldRank &- newRank
    }

    static func lowerBound(_ array: ContiguousArray<SortKey>, _ key: SortKey) -> Int {
        var low = 0
        var high = array.count
        while low < high {
            let middle = (low + high) / 2
            if array[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Applies the first 2,000 changes to a fresh tree and a fresh array and checks every rank agrees.
    static func verify(_ workload: Workload) {
        guard let tree = try? CountedBTree(sorted: workload.sorted) else { fatalError("unsorted workload") }
        var array = ContiguousArray(workload.sorted)
        var treeKeys = workload.keys
        var arrayKeys = workload.keys
        for change in workload.changes.prefix(2_000) {
            let old = treeKeys[change.row]
            let expectedOld = lowerBound(array, old)
            let treeDelta = applyToTree(tree, change, current: &treeKeys)
            let arrayDelta = applyToArray(&array, change, current: &arrayKeys)
            guard treeDelta == arrayDelta, tree.rank(of: change.key) == lowerBound(array, change.key),
                tree.element(at: expectedOld) == array[expectedOld]
            else { fatalError("the tree and the sorted array disagree") }
        }
        guard tree.count == array.count, tree.elementsEqual(array) else { fatalError("contents differ") }
        print("verified: 2,000 changes give the same ranks in both structures")
    }

    /// Microseconds to encode one key from a fetched row.
    static func encodingCost(_ workload: Workload) -> Double {
        var samples = Samples()
        var sink = 0
        for _ in 0..<5 {
            let start = Stopwatch()
            for row in workload.sampleRows { sink &+= workload.order.key(row).byteCount }
            samples.add(start, count: workload.sampleRows.count)
        }
        if sink == 42 { print("") }
        return samples.cpuMedian
    }

    /// Capacities against change time and memory at one size. The configurations take turns, batch by
    /// batch, so load from other processes falls on all of them alike.
    static func sweep(rows: Int, options: Options) {
        let rounds = options.runs
        let batchSize = options.changes
        let workload = Workload(rows: rows, changes: rounds * batchSize, text: false, seed: 0xB7EE)
        print("\n-- capacity sweep: \(rows) rows, key \(workload.name), \(rounds) rounds × \(batchSize) changes, "
              + "4 operations per change --")
        let capacities = [16, 32, 48, 64, 128].flatMap { leaf in [16, 32, 64].map { (leaf, $0) } }
        var trees: [CountedBTree<SortKey>] = []
        var keys: [[SortKey]] = []
        for (leaf, branch) in capacities {
            guard let tree = try? CountedBTree(sorted: workload.sorted, leafCapacity: leaf, branchCapacity: branch)
            else { return }
            trees.append(tree)
            keys.append(workload.keys.map { $0 })
        }
        var samples = [Samples](repeating: Samples(), count: capacities.count)
        var checksum = 0
        for round in 0..<rounds {
            let batch = workload.changes[(round * batchSize)..<((round + 1) * batchSize)]
            for index in capacities.indices {
                let start = Stopwatch()
                for change in batch { checksum &+= applyToTree(trees[index], change, current: &keys[index]) }
                samples[index].add(start, count: batch.count)
            }
        }
        for (index, (leaf, branch)) in capacities.enumerated() {
            let statistics = trees[index].storageStatistics
            print(String(format: "leaf %3d branch %2d: ", leaf, branch) + samples[index].line
                  + String(format: "  height %d  nodes %5.1f B/row  leaf fill %.2f", statistics.height,
                           statistics.bytesPerElement, statistics.leafFill))
        }
        print("[checksum \(checksum & 0xFFFF)]")
    }

    /// Engine memory per row: the tree's nodes (measured by the heap, and counted) plus key tails.
    static func memoryLine(_ tree: CountedBTree<SortKey>, _ before: HeapUsage, _ now: HeapUsage,
                           _ workload: Workload) -> String {
        let statistics = tree.storageStatistics
        let rows = Double(statistics.elementCount)
        let heap = Double(now.inUse - before.inUse) / rows
        return String(format: "%.1f B/row = tree nodes %.1f (mallinfo2 in-use delta) + key tails %.1f; "
                      + "counted: %.1f B/row in %d leaves + %d branches, height %d, leaf fill %.2f",
                      heap + workload.tailBytesPerRow, heap, workload.tailBytesPerRow, statistics.bytesPerElement,
                      statistics.leafCount, statistics.branchCount, statistics.height, statistics.leafFill)
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    static func milliseconds(_ duration: Duration) -> Double { microseconds(duration) / 1_000 }
}

/// Wall-clock and thread CPU time since it was made. On a shared machine the CPU time leaves out the
/// time other processes held the core; the wall-clock time does not.
struct Stopwatch {
    let wall = ContinuousClock.now
    let cpu = Stopwatch.threadCPUMicroseconds()

    static func threadCPUMicroseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
    }
}

/// Per-item times of several runs.
struct Samples {
    var wall: [Double] = []
    var cpu: [Double] = []

    /// Records the time since `start`, divided by `count` items, in microseconds.
    mutating func add(_ start: Stopwatch, count: Int) {
        let elapsed = ContinuousClock.now - start.wall
        let wallMicroseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        wall.append(wallMicroseconds / Double(max(count, 1)))
        cpu.append((Stopwatch.threadCPUMicroseconds() - start.cpu) / Double(max(count, 1)))
    }

    var cpuMedian: Double { BTreeBenchmark.median(cpu) }
    var wallMedian: Double { BTreeBenchmark.median(wall) }

    /// `median (min) µs | median (min) µs`, CPU then wall.
    var line: String {
        String(format: "%8.3f µs (%.3f) | %8.3f µs (%.3f)", cpuMedian, cpu.min() ?? 0, wallMedian, wall.min() ?? 0)
    }
}

/// The bytes glibc's allocator has handed out and not taken back (`mallinfo2`: `uordblks + hblkhd`).
struct HeapUsage {
    let inUse: Int

    /// glibc's `struct mallinfo2 mallinfo2(void)` (ten `size_t`s). On x86-64 System V a struct that large is
    /// returned through a hidden pointer passed as the first argument, so the function can be called as
    /// `void f(struct mallinfo2 *)`; elsewhere memory is only counted from the tree's nodes.
    private static let mallinfo2: (@convention(c) (UnsafeMutableRawPointer) -> Void)? = {
        #if arch(x86_64) && os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallinfo2") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self)
        #else
            return nil
        #endif
    }()

    static func current() -> HeapUsage {
        guard let mallinfo2 else { return HeapUsage(inUse: 0) }
        var fields = [Int](repeating: 0, count: 10)
        fields.withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { mallinfo2(base) }
        }
        // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost
        return HeapUsage(inUse: fields[7] + fields[4])
    }
}

/// SplitMix64, so every run sees the same keys and changes.
struct BTreeBenchRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static let words = ["Buy", "milk", "write", "the", "report", "call", "Anna", "fix", "bug", "plan", "trip",
                        "review", "pull", "request", "book", "flights", "pay", "rent", "water", "plants"]

    /// A task-like title of two to four words.
    static func title(using random: inout BTreeBenchRandom) -> String {
        (0..<Int.random(in: 2...4, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }
            .joined(separator: " ")
    }
}
