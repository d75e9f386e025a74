#if !Metrics
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
#endif
