@_spi(Benchmarks) import FetchKit
import Foundation

/// The incremental path's data structure: one row's sort key changes, and the engine needs the row's old
/// position, the new one, and the structure updated. The results engine's tree (`ResultsTree` of 4-byte
/// handles with `SortKey` separators, through `ResultsTreeProbe`) against a sorted `ContiguousArray<SortKey>`
/// with binary search and `remove(at:)`/`insert(_:at:)` (memmove), same keys, same run.
///
/// `tree [--rows N] [--changes N] [--runs N] [--baseline-changes N]`
/// - default sizes 100,000 and 1,000,000 rows (`--rows` picks one), keys `(ordering: Double, id)`, then a
///   1,000,000-row run with text keys `(title, id)`;
/// - each change: the row's old position (a descent by separators, then its handle in one leaf), remove,
///   the new position (separators, then the leaf's keys), insert; new keys pre-encoded; the cost of
///   encoding a key from a fetched `Row` is measured separately;
/// - the tree twice: edited in place (no other version alive), and keeping the version before each change
///   alive as a controller does (the snapshot its delegate receives as `previous`), so the change copies the
///   nodes on its path — what the engine pays;
/// - the sorted array does at most `--baseline-changes` changes per run at 1M rows (hundreds of µs each);
/// - the three take turns, batch by batch, so load from other processes falls on all of them alike;
/// - memory: glibc `mallinfo2()` in-use bytes before and after building the tree (the handles of the
///   rows and the tree's nodes; the keys exist before), divided by rows; and the tree's shape.
enum TreeBenchmark {
    struct Options {
        var sizes = [100_000, 1_000_000]
        var changes = 100_000
        var runs = 5
        var baselineChanges: Int?

        init(arguments: [String]) {
            func value(_ name: String) -> Int? {
                guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
                return Int(arguments[index + 1])
            }
            if let rows = value("--rows") { sizes = [rows] }
            changes = value("--changes") ?? changes
            runs = max(1, value("--runs") ?? runs)
            baselineChanges = value("--baseline-changes")
        }
    }

    /// One change: row `row` gets key `key`.
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

        init(rows: Int, changes count: Int, text: Bool, seed: UInt64) {
            var random = BenchRandom(seed: seed)
            func value() -> Value {
                if text { return .text(BenchRandom.title(using: &random)) }
                return .double(Double(UInt64.random(in: 0..<1 << 40, using: &random)) / 1_024)
            }
            let column = text ? "title" : "ordering"
            name = text ? "(title: String, id)" : "(ordering: Double, id)"
            order = SortKeyOrder([.ascending(column)], primaryKey: "id")
            let order = order
            keys = (0..<rows).map { order.key(values: [value()], primaryKey: .integer(Int64($0 + 1))) }
            sorted = keys.sorted()
            // A new key keeps the row's primary key, so no two rows ever share one.
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
        print("== results tree: single-row sort-key change (old position, remove, new position, insert) ==")
        print(
            "   ResultsTree<UInt32 handle, SortKey>: leaf capacity \(ResultsTreeProbe.leafCapacity), branch "
                + "capacity \(ResultsTreeProbe.branchCapacity), SortKey \(MemoryLayout<SortKey>.size) bytes inline")
        for rows in options.sizes {
            let workload = Workload(rows: rows, changes: options.changes * options.runs, text: false, seed: 0xB7EE)
            measure(workload, rows: rows, options: options)
        }
        let textRows = options.sizes.max() ?? 1_000_000
        var textOptions = options
        textOptions.runs = 3
        let text = Workload(rows: textRows, changes: options.changes * textOptions.runs, text: true, seed: 0x7E47)
        measure(text, rows: textRows, options: textOptions)
    }

    /// Times the tree (in place and keeping the previous version) and the sorted array on one workload.
    static func measure(_ workload: Workload, rows: Int, options: Options) {
        print("\n-- \(rows) rows, key \(workload.name) --")
        verify(workload)
        let encoding = encodingCost(workload)
        print(String(format: "key encoding from a fetched Row (order.key(row)): %.3f µs/key", encoding))

        let baselineChanges = options.baselineChanges ?? (rows > 300_000 ? 2_000 : options.changes)
        var array = ContiguousArray(workload.sorted)
        array.withUnsafeMutableBufferPointer { _ in }  // its own buffer now, not one shared with `sorted`
        var arrayKeys = workload.keys

        let before = HeapUsage.current()
        let clock = ContinuousClock()
        let buildStart = clock.now
        var inPlace = ResultsTreeProbe(keys: workload.keys, keepsPrevious: false)
        let build = clock.now - buildStart
        let built = HeapUsage.current()
        var persistent = ResultsTreeProbe(keys: workload.keys, keepsPrevious: true)
        let shape = inPlace.shape
        print(String(format: "build (sort the rows' handles by key + bulk build): %.1f ms", milliseconds(build)))
        print(
            String(
                format: "  memory: %.1f B/row (mallinfo2 in-use delta: 4 B/row of row → handle, the tree's "
                    + "nodes); height %d, %d leaves, %d inner nodes, leaf fill %.2f",
                Double(built.inUse - before.inUse) / Double(rows), shape.height, shape.leaves,
                shape.innerNodes, shape.leafFill))

        var inPlaceSamples = Samples()
        var persistentSamples = Samples()
        var arraySamples = Samples()
        var checksum = 0
        for run in 0..<options.runs {
            let batch = workload.changes[(run * options.changes)..<((run + 1) * options.changes)]
            var start = Stopwatch()
            for change in batch {
                let (old, new) = inPlace.change(row: change.row, to: change.key)
                checksum &+= old &- new
            }
            inPlaceSamples.add(start, count: batch.count)
            start = Stopwatch()
            for change in batch {
                let (old, new) = persistent.change(row: change.row, to: change.key)
                checksum &+= old &- new
            }
            persistentSamples.add(start, count: batch.count)
            let baseline = batch.prefix(baselineChanges)
            start = Stopwatch()
            for change in baseline {
                checksum &+= applyToArray(&array, change, current: &arrayKeys)
            }
            arraySamples.add(start, count: baseline.count)
        }
        let changes = options.changes
        print("per change, median of runs (min), thread CPU time | wall-clock time:")
        print("  tree, in place               " + inPlaceSamples.line + "   \(options.runs) runs × \(changes) changes")
        print("  tree, previous version kept  " + persistentSamples.line + "   as a controller: path copied")
        print(
            "  sorted ContiguousArray       " + arraySamples.line
                + "   \(options.runs) runs × \(min(baselineChanges, changes)) changes")
        print(
            String(
                format: "  ratio array / tree: %.1fx in place, %.1fx previous kept (CPU); %.1fx, %.1fx (wall); "
                    + "tree (previous kept) + key encoding: %.3f µs/change (CPU)",
                arraySamples.cpuMedian / inPlaceSamples.cpuMedian,
                arraySamples.cpuMedian / persistentSamples.cpuMedian,
                arraySamples.wallMedian / inPlaceSamples.wallMedian,
                arraySamples.wallMedian / persistentSamples.wallMedian, persistentSamples.cpuMedian + encoding))
        let after = inPlace.shape
        print(
            String(
                format: "  after %d changes: height %d, %d leaves, leaf fill %.2f [checksum %d]",
                options.runs * changes, after.height, after.leaves, after.leafFill, checksum & 0xFFFF))
    }

    /// The same change on a sorted array: binary search, `remove(at:)`, binary search, `insert(_:at:)`.
    @inline(__always)
    static func applyToArray(_ array: inout ContiguousArray<SortKey>, _ change: Change, current: inout [SortKey]) -> Int
    {
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

    /// Applies the first 2,000 changes to fresh trees and a fresh array and checks that every position
    /// agrees, then the trees' invariants and contents.
    static func verify(_ workload: Workload) {
        var trees = [
            ResultsTreeProbe(keys: workload.keys, keepsPrevious: false),
            ResultsTreeProbe(keys: workload.keys, keepsPrevious: true)
        ]
        var array = ContiguousArray(workload.sorted)
        var arrayKeys = workload.keys
        for change in workload.changes.prefix(2_000) {
            let expectedOld = lowerBound(array, arrayKeys[change.row])
            _ = applyToArray(&array, change, current: &arrayKeys)
            let expectedNew = lowerBound(array, change.key)
            for index in trees.indices {
                let (old, new) = trees[index].change(row: change.row, to: change.key)
                guard old == expectedOld, new == expectedNew else {
                    fatalError("the tree and the sorted array disagree")
                }
            }
        }
        for tree in trees {
            if let problem = tree.invariantViolation() { fatalError("the tree is broken: \(problem)") }
            guard tree.count == array.count, (0..<array.count).allSatisfy({ tree.key(at: $0) == array[$0] })
            else { fatalError("contents differ") }
        }
        print("verified: 2,000 changes give the same positions in both trees and the sorted array")
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

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
}
