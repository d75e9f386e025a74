@_spi(Benchmarks) import FetchKit
import Foundation

/// `staged()` on large batches: a reversed list (every row moves) and a 10 %-churned one, at 100k and 1M
/// rows. Measures the keyed diff that makes the batch, `staged()` on it, and — as the baseline in the same
/// run — the index validation `staged()` did before it used bitmaps (sets of index paths, kept here).
///
/// DifferenceKit is not served on this machine; its `StagedChangeset` took 41–50 ms on 100k reversed rows and
/// 0.75–0.85 s on 1M here (figures in BENCHMARKS.md), diff included.
enum StagedBenchmark {
    static func run(sizes: [Int], iterations: Int) async throws {
        for n in sizes {
            let reversedOld = DiffSide(keys: (0..<Int64(n)).map { $0 })
            let reversedNew = DiffSide(keys: (0..<Int64(n)).reversed().map { $0 })
            let (old, new) = DiffBenchmark.makeSides(rows: n)
            let inputs: [(name: String, diff: () -> Changeset)] = [
                ("reversed", { KeyedDiff.changeset(from: reversedOld, to: reversedNew) { _, _ in true } }),
                ("churned 10 %", { DiffBenchmark.diff(old, new, engine: .table, sharedOrder: true) })
            ]
            for input in inputs {
                let changeset = input.diff()
                let label = "\(n / 1_000)k \(input.name)"
                let results = try await compare(
                    [
                        ("\(label): set validation (before)", { try setValidation(changeset) }),
                        ("\(label): keyed diff", { _ = input.diff() }),
                        ("\(label): staged()", { _ = try changeset.staged() }),
                        ("\(label): diff + staged()", { _ = try input.diff().staged() })
                    ], warmup: 1, iterations: iterations)
                for result in results { print(reportLine(result)) }
                let speedup =
                    Measurement.milliseconds(results[0].median) / Measurement.milliseconds(results[2].median)
                print(
                    "  staged() against the set validation alone: \(String(format: "%.1f", speedup))x faster; "
                        + "moves \(changeset.rowMoves.count), inserts \(changeset.rowInserts.count), deletes "
                        + "\(changeset.rowDeletes.count)"
                )
            }
        }
    }

    /// The validation `staged()` ran before: every index path into a `Set`.
    static func setValidation(_ changeset: Changeset) throws {
        var sources = Set<RowPath>()
        var destinations = Set<RowPath>()
        for path in changeset.rowDeletes where !sources.insert(path).inserted {
            throw FetchKitError(.invalidValue, message: "twice")
        }
        for path in changeset.rowInserts where !destinations.insert(path).inserted {
            throw FetchKitError(.invalidValue, message: "twice")
        }
        for move in changeset.rowMoves {
            guard sources.insert(move.from).inserted, destinations.insert(move.to).inserted else {
                throw FetchKitError(.invalidValue, message: "twice")
            }
        }
    }
}
