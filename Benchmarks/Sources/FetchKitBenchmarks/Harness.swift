import Foundation

/// Times closures and reports medians: a tiny harness so every figure in BENCHMARKS.md comes from one command.
struct Measurement {
    let name: String
    let samples: [Duration]
    /// The process's CPU time of each run (every thread), where measured: on a shared machine it leaves
    /// out the time a run waits for a core, which wall time counts.
    var cpuSamples: [Duration] = []

    var median: Duration {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    var minimum: Duration { samples.min() ?? .zero }

    var cpuMedian: Duration? {
        let sorted = cpuSamples.sorted()
        return sorted.isEmpty ? nil : sorted[sorted.count / 2]
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15
    }
}

/// The CPU time the process has used so far, on all its threads.
func processCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// Measures a baseline and a candidate alternately (A B A B …) so drift on a shared machine hits both,
/// in wall time and in process CPU time.
func compare(
    baseline: String, _ a: () async throws -> Void, candidate: String, _ b: () async throws -> Void,
    warmup: Int = 2, iterations: Int = 11
) async rethrows -> (Measurement, Measurement) {
    for _ in 0..<warmup {
        try await a()
        try await b()
    }
    var sa: [Duration] = []
    var sb: [Duration] = []
    var ca: [Duration] = []
    var cb: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<iterations {
        var start = clock.now
        var cpu = processCPUTime()
        try await a()
        sa.append(clock.now - start)
        ca.append(processCPUTime() - cpu)
        start = clock.now
        cpu = processCPUTime()
        try await b()
        sb.append(clock.now - start)
        cb.append(processCPUTime() - cpu)
    }
    return (
        Measurement(name: baseline, samples: sa, cpuSamples: ca),
        Measurement(name: candidate, samples: sb, cpuSamples: cb)
    )
}

/// Measures several closures round-robin (A B C A B C …), in wall time and process CPU time.
func compare(
    _ bodies: [(name: String, body: () async throws -> Void)], warmup: Int = 2, iterations: Int = 11
) async throws -> [Measurement] {
    for _ in 0..<warmup {
        for entry in bodies { try await entry.body() }
    }
    var wall = Array(repeating: [Duration](), count: bodies.count)
    var cpu = Array(repeating: [Duration](), count: bodies.count)
    let clock = ContinuousClock()
    for _ in 0..<iterations {
        for (index, entry) in bodies.enumerated() {
            let start = clock.now
            let startCPU = processCPUTime()
            try await entry.body()
            wall[index].append(clock.now - start)
            cpu[index].append(processCPUTime() - startCPU)
        }
    }
    return bodies.indices.map { Measurement(name: bodies[$0].name, samples: wall[$0], cpuSamples: cpu[$0]) }
}

/// The report line of one measurement.
func reportLine(_ m: Measurement) -> String {
    let name = m.name.padding(toLength: 40, withPad: " ", startingAt: 0)
    let cpu = m.cpuMedian.map { String(format: "  cpu median %9.3f ms", Measurement.milliseconds($0)) } ?? ""
    return name
        + String(
            format: " median %9.3f ms  (min %9.3f ms, %d runs)", Measurement.milliseconds(m.median),
            Measurement.milliseconds(m.minimum), m.samples.count) + cpu
}

func report(_ baseline: Measurement, _ candidate: Measurement) {
    print(reportLine(baseline))
    print(reportLine(candidate))
    reportRatio(baseline, candidate)
}

/// One line: the candidate's median over the baseline's, in wall time and CPU time.
func reportRatio(_ baseline: Measurement, _ candidate: Measurement) {
    let ratio = Measurement.milliseconds(candidate.median) / Measurement.milliseconds(baseline.median)
    var cpuRatio = ""
    if let a = baseline.cpuMedian, let b = candidate.cpuMedian {
        cpuRatio = String(format: ", %.2fx cpu", Measurement.milliseconds(b) / Measurement.milliseconds(a))
    }
    print("ratio (\(candidate.name)) / (\(baseline.name)): " + String(format: "%.2fx", ratio) + cpuRatio)
}
