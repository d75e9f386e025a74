@_spi(Benchmarks) import FetchKit
import Foundation

/// Full diff of two sorted results with 10% churn (deletes, inserts, moves, updates, 2.5% each):
/// FetchKit's KeyedDiff against the standard library's `difference(from:).inferringMoves()` on the key arrays,
/// and the open-addressing residue table against `Dictionary`, with and without the shared order.
///
/// Options: `--diff-sizes 100000,1000000`; `--stdlib-max N` (largest size at which the standard library is timed
/// over every iteration, default 100,000); `--stdlib-once` (above that size, time it once instead of skipping it);
/// `--profile` (only FetchKit's diff, shared order unless `--unordered`, `--iterations` times, untimed, for perf).
enum DiffBenchmark {
    /// One side: keys in (sort, key) order, with their sort values and content versions.
    struct Side {
        var keys: [Int64] = []
        var sorts: [Int64] = []
        var versions: [Int32] = []

        func columns<R>(
            _ body: (UnsafeBufferPointer<Int64>, UnsafeBufferPointer<Int64>, UnsafeBufferPointer<Int32>) -> R
        ) -> R {
            keys.withUnsafeBufferPointer { keys in
                sorts.withUnsafeBufferPointer { sorts in
                    versions.withUnsafeBufferPointer { versions in body(keys, sorts, versions) }
                }
            }
        }
    }

    /// The two sides of an n-row diff with 10% churn, from a fixed seed.
    static func makeSides(rows n: Int) -> (old: Side, new: Side) {
        var random = BenchRandom(seed: 0xd1ff_0000 &+ UInt64(n))
        var rows = (0..<n).map { (key: Int64($0 + 1), sort: Int64(random.next() >> 20), version: Int32(0)) }
        let old = rows
        // Disjoint quarters of the churn: delete, re-sort (a move), change content (an update); then insert.
        let quarter = n / 40
        var picked = Array(0..<n)
        for k in 0..<(3 * quarter) {
            picked.swapAt(k, k + Int(random.next() % UInt64(n - k)))
        }
        for k in quarter..<(2 * quarter) { rows[picked[k]].sort = Int64(random.next() >> 20) }
        for k in (2 * quarter)..<(3 * quarter) { rows[picked[k]].version += 1 }
        let deleted = Set(picked[0..<quarter])
        var new = rows.indices.filter { !deleted.contains($0) }.map { rows[$0] }
        for k in 0..<quarter {
            new.append((key: Int64(n + k + 1), sort: Int64(random.next() >> 20), version: 0))
        }
        func side(_ rows: [(key: Int64, sort: Int64, version: Int32)]) -> Side {
            let sorted = rows.sorted { ($0.sort, $0.key) < ($1.sort, $1.key) }
            return Side(keys: sorted.map(\.key), sorts: sorted.map(\.sort), versions: sorted.map(\.version))
        }
        return (side(old), side(new))
    }

    enum Engine {
        case table, dictionary
    }

    /// Diffs the sides; the callbacks read the sides' columns through buffer pointers, as a results controller
    /// holding its rows in arrays would.
    static func diff(_ old: Side, _ new: Side, engine: Engine, sharedOrder: Bool) -> Changeset {
        let oldSide = DiffSide(keys: old.keys)
        let newSide = DiffSide(keys: new.keys)
        return old.columns { oldKeys, oldSorts, oldVersions in
            new.columns { newKeys, newSorts, newVersions in
                let isContentEqual: (Int, Int) -> Bool = { oldVersions[$0] == newVersions[$1] }
                let order: ((Int, Int) -> Bool)? =
                    sharedOrder ? { (oldSorts[$0], oldKeys[$0]) < (newSorts[$1], newKeys[$1]) } : nil
                switch engine {
                case .table:
                    return KeyedDiff.changeset(
                        from: oldSide, to: newSide, isOrderedBefore: order, isContentEqual: isContentEqual)
                case .dictionary:
                    return KeyedDiff.changesetHashingWithDictionary(
                        from: oldSide, to: newSide, isOrderedBefore: order, isContentEqual: isContentEqual)
                }
            }
        }
    }

    static func run(iterations: Int) async {
        let arguments = CommandLine.arguments
        func value(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            return arguments[index + 1]
        }
        let sizes = value("--diff-sizes")?.split(separator: ",").compactMap { Int($0) } ?? [100_000, 1_000_000]
        let stdlibMax = value("--stdlib-max").flatMap { Int($0) } ?? 100_000
        let stdlibOnce = arguments.contains("--stdlib-once")
        for n in sizes {
            let (old, new) = makeSides(rows: n)
            if arguments.contains("--profile") {
                let shared = !arguments.contains("--unordered")
                for _ in 0..<iterations { blackHole(diff(old, new, engine: .table, sharedOrder: shared)) }
                continue
            }
            let changes = diff(old, new, engine: .table, sharedOrder: true)
            print(
                "\ndiff \(n) rows -> \(new.keys.count) rows, 10% churn: \(changes.rowDeletes.count) deletes, "
                    + "\(changes.rowInserts.count) inserts, \(changes.rowMoves.count) moves, "
                    + "\(changes.rowUpdates.count) updates")
            for other in [
                diff(old, new, engine: .dictionary, sharedOrder: true),
                diff(old, new, engine: .table, sharedOrder: false)
            ] where other != changes {
                print("error: the engines disagree at \(n) rows")
                exit(1)
            }

            let stdlibName = "stdlib difference.inferringMoves"
            let fetchKitName = "FetchKit KeyedDiff (shared order)"
            if n <= stdlibMax {
                var stdlibChanges = 0
                let (stdlib, fetchKit) = await compare(
                    baseline: stdlibName,
                    { stdlibChanges = new.keys.difference(from: old.keys).inferringMoves().count },
                    candidate: fetchKitName, { blackHole(diff(old, new, engine: .table, sharedOrder: true)) },
                    warmup: 1, iterations: iterations)
                report(stdlib, fetchKit)
                printSpeedup(stdlib, fetchKit)
                print("  (stdlib: \(stdlibChanges) removals and insertions, moves paired; no updates, no sections)")
            } else if stdlibOnce {
                let clock = ContinuousClock()
                let start = clock.now
                let count = new.keys.difference(from: old.keys).inferringMoves().count
                let elapsed = clock.now - start
                let fetchKit = await measure(fetchKitName, iterations: iterations) {
                    blackHole(diff(old, new, engine: .table, sharedOrder: true))
                }
                let stdlib = Measurement(name: stdlibName + " (1 run)", samples: [elapsed])
                report(stdlib, fetchKit)
                printSpeedup(stdlib, fetchKit)
                print("  (stdlib: \(count) removals and insertions, one run only: too slow to repeat)")
            } else {
                let fetchKit = await measure(fetchKitName, iterations: iterations) {
                    blackHole(diff(old, new, engine: .table, sharedOrder: true))
                }
                reportAlone(fetchKit)
                print("  (stdlib not run at \(n) rows; pass --stdlib-once for a single run)")
            }

            let (sharedDictionary, sharedTable) = await compare(
                baseline: "residue by Dictionary (shared order)",
                { blackHole(diff(old, new, engine: .dictionary, sharedOrder: true)) },
                candidate: "residue by Int64 table (shared order)",
                { blackHole(diff(old, new, engine: .table, sharedOrder: true)) }, iterations: iterations)
            report(sharedDictionary, sharedTable)
            let (allDictionary, allTable) = await compare(
                baseline: "all by Dictionary (no shared order)",
                { blackHole(diff(old, new, engine: .dictionary, sharedOrder: false)) },
                candidate: "all by Int64 table (no shared order)",
                { blackHole(diff(old, new, engine: .table, sharedOrder: false)) }, iterations: iterations)
            report(allDictionary, allTable)
        }
    }

    /// Times `body` alone.
    static func measure(_ name: String, iterations: Int, _ body: () -> Void) async -> Measurement {
        body()
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for _ in 0..<iterations {
            let start = clock.now
            body()
            samples.append(clock.now - start)
        }
        return Measurement(name: name, samples: samples)
    }

    static func printSpeedup(_ stdlib: Measurement, _ fetchKit: Measurement) {
        let speedup = Measurement.milliseconds(stdlib.median) / Measurement.milliseconds(fetchKit.median)
        print("  FetchKit is " + String(format: "%.0f", speedup) + "x faster than the standard library (medians)")
    }

    static func reportAlone(_ measurement: Measurement) {
        let name = measurement.name.padding(toLength: 40, withPad: " ", startingAt: 0)
        print(
            name
                + String(
                    format: " median %9.3f ms  (min %9.3f ms, %d runs)", Measurement.milliseconds(measurement.median),
                    Measurement.milliseconds(measurement.minimum), measurement.samples.count))
    }

    /// Keeps a result alive so the optimizer cannot drop the work that made it.
    @inline(never)
    static func blackHole<T>(_ value: T) {
        withExtendedLifetime(value) {}
    }
}
