import Foundation

/// Times closures and reports medians: a tiny harness so every figure in BENCHMARKS.md comes from one command.
struct Measurement {
    let name: String
    let samples: [Duration]

    var median: Duration {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    var minimum: Duration { samples.min() ?? .zero }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15
    }
}

/// Measures a baseline and a candidate alternately (A B A B …) so drift on a shared machine hits both.
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
    let clock = ContinuousClock()
    for _ in 0..<iterations {
        var start = clock.now
        try await a()
        sa.append(clock.now - start)
        start = clock.now
        try await b()
        sb.append(clock.now - start)
    }
    return (Measurement(name: baseline, samples: sa), Measurement(name: candidate, samples: sb))
}

func report(_ baseline: Measurement, _ candidate: Measurement) {
    func line(_ m: Measurement) -> String {
        let name = m.name.padding(toLength: 40, withPad: " ", startingAt: 0)
        return name + String(
            format: " median %9.3f ms  (min %9.3f ms, %d runs)", Measurement.milliseconds(m.median),
            Measurement.milliseconds(m.minimum), m.samples.count)
    }
    print(line(baseline))
    print(line(candidate))
    let ratio = Measurement.milliseconds(candidate.median) / Measurement.milliseconds(baseline.median)
    print("ratio (\(candidate.name)) / (\(baseline.name)): " + String(format: "%.2fx", ratio))
}
