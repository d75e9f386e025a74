#if Metrics
    import CoreMetrics
#endif

/// FetchKit's metrics (swift-metrics), one set per store, made from the metrics backend the app bootstrapped
/// before opening the store, each with the store's dimensions (``PersistentStore/metricDimensions``: `store`, the
/// label the app gave it, and `feed`).
///
/// Without a bootstrapped backend every metric is swift-metrics' no-op handler: an update is one call that
/// does nothing. The names are listed in the "Live results under the hood" article.
package struct FetchKitMetrics: Sendable {
    /// `fetchkit_controllers`: live results controllers (a meter: up on creation, down on release).
    package let controllers: Meter
    /// `fetchkit_changes_applied_total{path="incremental"}`: store changes applied without a refetch.
    package let incrementalChanges: Counter
    /// `fetchkit_changes_applied_total{path="refetch"}`: store changes applied by refetching and diffing.
    package let refetchedChanges: Counter
    /// `fetchkit_resyncs_total{reason="feed"}`: refetches because the store may have missed changes (its feed
    /// reconnected, another process wrote).
    package let feedResyncs: Counter
    /// `fetchkit_resyncs_total{reason="backlog"}`: refetches that caught a slow controller up on a backlog.
    package let backlogResyncs: Counter
    /// `fetchkit_resyncs_total{reason="failure"}`: refetches that caught a controller up after a transient failure.
    package let failureResyncs: Counter
    /// `fetchkit_failures_total{kind="transient"}`: failures a controller retries.
    package let transientFailures: Counter
    /// `fetchkit_failures_total{kind="permanent"}`: failures that stopped a controller.
    package let permanentFailures: Counter
    /// `fetchkit_coalesced_deliveries_total`: deliveries that collapsed a slow consumer's backlog into one batch.
    package let coalescedDeliveries: Counter
    /// `fetchkit_delivery_backlog`: store changes and shared batches queued in controllers, not yet applied.
    package let deliveryBacklog: Meter
    /// `fetchkit_delivery_lag_seconds`: how far behind the store the store's furthest-behind controller is — the
    /// time since the oldest change it has not applied was published; measured while changes wait, 0 once
    /// none do (a gauge).
    package let deliveryLag: Gauge
    /// `fetchkit_folded_changes_total`: committed changes the change router folded into another (a backlog
    /// routed as one change).
    package let foldedChanges: Counter
    /// The store's dimensions, which every metric of the set carries.
    package let dimensions: [(String, String)]
    /// Makes the set's metrics, and the per-route ones (``RouteMetrics``).
    package let maker: MetricsMaker

    /// The metrics of a store with `dimensions`, from the bootstrapped backend.
    package init(dimensions: [(String, String)], maker: MetricsMaker = MetricsMaker()) {
        self.dimensions = dimensions
        self.maker = maker
        func counter(_ label: String, _ more: [(String, String)] = []) -> Counter {
            maker.counter(label, dimensions + more)
        }
        controllers = maker.meter("fetchkit_controllers", dimensions)
        incrementalChanges = counter("fetchkit_changes_applied_total", [("path", "incremental")])
        refetchedChanges = counter("fetchkit_changes_applied_total", [("path", "refetch")])
        feedResyncs = counter("fetchkit_resyncs_total", [("reason", "feed")])
        backlogResyncs = counter("fetchkit_resyncs_total", [("reason", "backlog")])
        failureResyncs = counter("fetchkit_resyncs_total", [("reason", "failure")])
        transientFailures = counter("fetchkit_failures_total", [("kind", "transient")])
        permanentFailures = counter("fetchkit_failures_total", [("kind", "permanent")])
        coalescedDeliveries = counter("fetchkit_coalesced_deliveries_total")
        deliveryBacklog = maker.meter("fetchkit_delivery_backlog", dimensions)
        deliveryLag = maker.gauge("fetchkit_delivery_lag_seconds", dimensions)
        foldedChanges = counter("fetchkit_folded_changes_total")
    }
}

/// Makes swift-metrics' metrics from the backend bootstrapped when it was made (or, without the Metrics trait,
/// metrics that report nothing).
package struct MetricsMaker: Sendable {
    #if Metrics
        private let factory: any MetricsFactory

        /// A maker over `factory` (by default the bootstrapped backend).
        package init(factory: any MetricsFactory = MetricsSystem.factory) {
            self.factory = factory
        }

        package func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }

        package func meter(_ label: String, _ dimensions: [(String, String)]) -> Meter {
            Meter(label: label, dimensions: dimensions, factory: factory)
        }

        package func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
            Gauge(label: label, dimensions: dimensions, factory: factory)
        }

        package func timer(_ label: String, _ dimensions: [(String, String)]) -> MetricsTimer {
            MetricsTimer(label: label, dimensions: dimensions, factory: factory)
        }
    #else
        /// A maker of metrics that report nothing: FetchKit was built without its Metrics trait.
        package init() {}

        package func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            Counter(label: label, dimensions: dimensions)
        }

        package func meter(_ label: String, _ dimensions: [(String, String)]) -> Meter {
            Meter(label: label, dimensions: dimensions)
        }

        package func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
            Gauge(label: label, dimensions: dimensions)
        }

        package func timer(_ label: String, _ dimensions: [(String, String)]) -> MetricsTimer {
            MetricsTimer(label: label, dimensions: dimensions)
        }
    #endif
}
