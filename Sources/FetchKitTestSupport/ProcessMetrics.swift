import CoreMetrics
import MetricsTestKit

/// The metrics backend of the test process: swift-metrics is bootstrapped once per process, and every test target
/// runs in the same one, so each test that reads metrics reads this one, and opens its stores after touching it
/// (a store takes the backend bootstrapped when it opens).
///
/// Only the metrics of stores labelled `metrics-…` reach it: every other store of the run gets no-op handlers, so
/// the suite's thousands of stores do not pile every timer sample into one locked array.
///
/// ```swift
/// let metrics = ProcessMetrics.shared
/// var options = SQLiteStore.Options()
/// options.label = "metrics-my-test"      // the `store` dimension: this test's metrics alone
/// ```
public enum ProcessMetrics {
    /// The bootstrapped test backend.
    public static let shared: TestMetrics = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(LabelledStores(metrics))
        return metrics
    }()

    /// Hands the metrics of stores labelled `metrics-…` to the test backend, no-op handlers to the rest.
    private final class LabelledStores: MetricsFactory {
        let test: TestMetrics
        let none = NOOPMetricsHandler.instance

        init(_ test: TestMetrics) { self.test = test }

        private func measured(_ dimensions: [(String, String)]) -> Bool {
            dimensions.contains { $0.0 == "store" && $0.1.hasPrefix("metrics-") }
        }

        func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
            measured(dimensions) ? test.makeCounter(label: label, dimensions: dimensions) : none
        }

        func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
            measured(dimensions) ? test.makeMeter(label: label, dimensions: dimensions) : none
        }

        func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
            measured(dimensions) ? test.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate) : none
        }

        func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
            measured(dimensions) ? test.makeTimer(label: label, dimensions: dimensions) : none
        }

        func destroyCounter(_ handler: any CounterHandler) {
            if handler is TestCounter { test.destroyCounter(handler) }
        }

        func destroyMeter(_ handler: any MeterHandler) {
            if handler is TestMeter { test.destroyMeter(handler) }
        }

        func destroyRecorder(_ handler: any RecorderHandler) {
            if handler is TestRecorder { test.destroyRecorder(handler) }
        }

        func destroyTimer(_ handler: any TimerHandler) {
            if handler is TestTimer { test.destroyTimer(handler) }
        }
    }
}
