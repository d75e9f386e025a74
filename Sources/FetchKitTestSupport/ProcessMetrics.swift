import CoreMetrics
import MetricsTestKit

/// The metrics backend of the test process: swift-metrics is bootstrapped once per process, and every test target
/// runs in the same one, so each test that reads metrics reads this one, and opens its stores after touching it
/// (a store takes the backend bootstrapped when it opens).
///
/// ```swift
/// let metrics = ProcessMetrics.shared
/// var options = SQLiteStore.Options()
/// options.label = "my-test"      // the `store` dimension: this test's metrics alone
/// ```
public enum ProcessMetrics {
    /// The bootstrapped test backend.
    public static let shared: TestMetrics = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        return metrics
    }()
}
