@_spi(Backend) @_spi(Benchmarks) import FetchKit
import Foundation

/// The incremental engine's work for one single-row change (tree edits + changeset, no database), against
/// refetch + diff of the same change (a new snapshot of every row + the keyed diff, still without the
/// query, which only makes the refetch side look better), on 100k- and 1M-row results; and the engine's
/// heap per row (glibc `mallinfo2` in-use bytes of a snapshot over rows that already exist, so the rows'
/// own values are not counted).
enum EngineBenchmark {
    static func run(sizes: [Int], changes: Int, refetches: Int) throws {
        let layout = RowLayout(names: ["id", "score", "name"])
        let order = SortKeyOrder([.ascending("score")], primaryKey: "id")
        print("engine: one single-row change (the row moves), sorted by a double, \(changes) changes")
        for size in sizes {
            var generator = BenchRandom(seed: 7)
            var rows = (0..<size).map { i in
                Row(layout: layout, values: [.integer(Int64(i)), .double(Double(i)), .text("row number \(i)")])
            }
            let before = HeapUsage.current()
            var probe = ResultsEngineProbe(rows: rows, order: order)
            let after = HeapUsage.current()
            let bytesPerRow = Double(after.inUse - before.inUse) / Double(size)

            // Incremental: `changes` random moves, timed together.
            func changedRow() -> Row {
                let id = Int64.random(in: 0..<Int64(size), using: &generator)
                let score = Double.random(in: 0..<Double(size), using: &generator)
                return Row(layout: layout, values: [.integer(id), .double(score), .text("row number \(id)")])
            }
            let updates = (0..<changes).map { _ in changedRow() }
            let clock = ContinuousClock()
            var operations = 0
            let cpuStart = processCPUTime()
            let start = clock.now
            for row in updates { operations += try probe.applyIncrementally(row) }
            let incrementalWall = (clock.now - start) / changes
            let incrementalCPU = (processCPUTime() - cpuStart) / changes
            precondition(operations >= changes / 2, "the changes should mostly be moves")

            // Refetch + diff of single-row changes, on the rows the probe now holds.
            rows = Array(probe.snapshot.fetchedObjects)
            var refetchSamples: [Duration] = []
            for _ in 0..<refetches {
                let row = changedRow()
                let key = row["id"]!
                rows.removeAll { $0["id"] == key }
                let place = rows.firstIndex { order.compare($0, row) == .orderedDescending } ?? rows.count
                rows.insert(row, at: place)
                let start = clock.now
                _ = try probe.applyByRefetch(rows)
                refetchSamples.append(clock.now - start)
            }
            let refetch = refetchSamples.sorted()[refetchSamples.count / 2]
            print(
                String(
                    format:
                        "%8d rows: incremental %7.2f µs/change (cpu %7.2f µs)   refetch + diff %9.1f µs (median of %d)"
                        + "   ratio %6.0fx   engine heap %.1f B/row",
                    size, micros(incrementalWall), micros(incrementalCPU), micros(refetch), refetches,
                    micros(refetch) / micros(incrementalWall), bytesPerRow))
            withExtendedLifetime(probe) {}
        }
    }

    static func micros(_ duration: Duration) -> Double { Measurement.milliseconds(duration) * 1_000 }
}
