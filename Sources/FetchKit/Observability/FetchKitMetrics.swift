#if Metrics
    import CoreMetrics
#endif

/// FetchKit's counters and gauges (swift-metrics), one set per store, made from the metrics backend the app
/// bootstrapped before opening the store.
///
/// Without a bootstrapped backend every metric is swift-metrics' no-op handler: an update is one call that
/// does nothing. The names are listed in the "Live results under the hood" article.
package struct FetchKitMetrics: Sendable {
    /// `fetchkit_controllers`: live results controllers (a meter: up on creation, down on release).
    package let controllers: Meter
    /// `fetchkit_batches_delivered_total`: batches controllers delivered to delegates and update sequences.
    package let batchesDelivered: Counter
    /// `fetchkit_changes_applied_total{path="incremental"}`: store changes applied without a refetch.
    package let incrementalChanges: Counter
    /// `fetchkit_changes_applied_total{path="refetch"}`: store changes applied by refetching and diffing.
    package let refetchedChanges: Counter
    /// `fetchkit_resyncs_total`: refetches that caught a controller up after a transient failure, a missed
    /// change or a slow consumer.
    package let resyncs: Counter
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

    #if Metrics
        /// The metrics, from the bootstrapped backend (`MetricsSystem.factory`).
        package init(factory: any MetricsFactory = MetricsSystem.factory) {
            self.init(
                counter: { Counter(label: $0, dimensions: $1, factory: factory) },
                meter: { Meter(label: $0, dimensions: $1, factory: factory) },
                gauge: { Gauge(label: $0, dimensions: $1, factory: factory) })
        }
    #else
        /// Metrics that report nothing: FetchKit was built without its Metrics trait.
        package init() {
            self.init(
                counter: { Counter(label: $0, dimensions: $1) }, meter: { Meter(label: $0, dimensions: $1) },
                gauge: { Gauge(label: $0, dimensions: $1) })
        }
    #endif

    private init(
        counter: (String, [(String, String)]) -> Counter, meter: (String, [(String, String)]) -> Meter,
        gauge: (String, [(String, String)]) -> Gauge
    ) {
        controllers = meter("fetchkit_controllers", [])
        batchesDelivered = counter("fetchkit_batches_delivered_total", [])
        incrementalChanges = counter("fetchkit_changes_applied_total", [("path", "incremental")])
        refetchedChanges = counter("fetchkit_changes_applied_total", [("path", "refetch")])
        resyncs = counter("fetchkit_resyncs_total", [])
        transientFailures = counter("fetchkit_failures_total", [("kind", "transient")])
        permanentFailures = counter("fetchkit_failures_total", [("kind", "permanent")])
        coalescedDeliveries = counter("fetchkit_coalesced_deliveries_total", [])
        deliveryBacklog = meter("fetchkit_delivery_backlog", [])
        deliveryLag = gauge("fetchkit_delivery_lag_seconds", [])
        foldedChanges = counter("fetchkit_folded_changes_total", [])
    }
}
