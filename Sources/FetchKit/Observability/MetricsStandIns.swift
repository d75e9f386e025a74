#if Metrics
    import CoreMetrics

    /// swift-metrics' timer, under a name Foundation's `Timer` does not shadow.
    package typealias MetricsTimer = CoreMetrics.Timer
#else
    // Built without the Metrics trait: the metrics FetchKit keeps are these, which report nothing, so the code
    // that updates them reads the same either way and swift-metrics is not a dependency.

    /// A counter that counts nothing.
    package struct Counter: Sendable {
        package init(label: String, dimensions: [(String, String)] = []) {}
        package func increment() {}
        package func increment<Amount: BinaryInteger>(by amount: Amount) {}
    }

    /// A meter that measures nothing.
    package struct Meter: Sendable {
        package init(label: String, dimensions: [(String, String)] = []) {}
        package func increment(by amount: Double = 1) {}
        package func decrement(by amount: Double = 1) {}
    }

    /// A gauge that records nothing.
    package struct Gauge: Sendable {
        package init(label: String, dimensions: [(String, String)] = []) {}
        package func record<Value: BinaryInteger>(_ value: Value) {}
        package func record<Value: BinaryFloatingPoint>(_ value: Value) {}
    }

    /// A timer that times nothing.
    package struct MetricsTimer: Sendable {
        package init(label: String, dimensions: [(String, String)] = []) {}
        package func recordNanoseconds(_ duration: Int64) {}
    }
#endif

extension MetricsTimer {
    /// Records `duration` (negative: as zero).
    package func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(max(0, seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000))
    }
}
