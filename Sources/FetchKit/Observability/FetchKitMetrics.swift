import CoreMetrics

/// FetchKit's counters and gauges (swift-metrics), one set per store, made from the metrics backend the app
/// bootstrapped before opening the store.
///
/// Without a bootstrapped backend every metric is swift-metrics' no-op handler: an update is one call that
/// does nothing. The names are listed in the README and in "Live results under the hood".
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

    /// The metrics, from the bootstrapped backend (`MetricsSystem.factory`).
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        controllers = Meter(label: "fetchkit_controllers", factory: factory)
        batchesDelivered = Counter(label: "fetchkit_batches_delivered_total", factory: factory)
        incrementalChanges = Counter(
            label: "fetchkit_changes_applied_total", dimensions: [("path", "incremental")], factory: factory)
        refetchedChanges = Counter(
            label: "fetchkit_changes_applied_total", dimensions: [("path", "refetch")], factory: factory)
        resyncs = Counter(label: "fetchkit_resyncs_total", factory: factory)
        transientFailures = Counter(
            label: "fetchkit_failures_total", dimensions: [("kind", "transient")], factory: factory)
        permanentFailures = Counter(
            label: "fetchkit_failures_total", dimensions: [("kind", "permanent")], factory: factory)
        coalescedDeliveries = Counter(label: "fetchkit_coalesced_deliveries_total", factory: factory)
        deliveryBacklog = Meter(label: "fetchkit_delivery_backlog", factory: factory)
        deliveryLag = Gauge(label: "fetchkit_delivery_lag_seconds", factory: factory)
        foldedChanges = Counter(label: "fetchkit_folded_changes_total", factory: factory)
    }
}
