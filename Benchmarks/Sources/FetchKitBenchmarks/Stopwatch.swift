import Foundation

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

    var cpuMedian: Double { median(cpu) }
    var wallMedian: Double { median(wall) }

    /// `median (min) µs | median (min) µs`, CPU then wall.
    var line: String {
        String(format: "%8.3f µs (%.3f) | %8.3f µs (%.3f)", cpuMedian, cpu.min() ?? 0, wallMedian, wall.min() ?? 0)
    }
}

/// The middle value of `samples` (0 when empty).
func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// `    name: median M (v1, v2, …)`: the median of several runs with every run, each written with `format`.
func medianLine(_ name: String, _ values: [Double], _ format: String) -> String {
    "    \(name): median " + String(format: format, median(values)) + " ("
        + values.map { String(format: format, $0) }.joined(separator: ", ") + ")"
}

/// Whether `value` is within `limit`, and the words that say so: `; budget <what> ≤ <limit>: met` or
/// `…: EXCEEDED`, the limit written with `format`.
func budget(_ value: Double, limit: Double, _ what: String, _ format: String) -> (met: Bool, verdict: String) {
    let met = value <= limit
    return (met, "; budget \(what) ≤ " + String(format: format, limit) + (met ? ": met" : ": EXCEEDED"))
}
