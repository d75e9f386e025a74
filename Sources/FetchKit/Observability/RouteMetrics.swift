#if Metrics
    import CoreMetrics
#endif

/// The metrics of the controllers of one entity that are routed one way, in one store: what their delegates
/// receive, and how long after the commit. Made once per store, entity and ``ControllerRouting`` (``ChangeRouter``
/// keeps them) and shared by those controllers, which hold a reference.
package final class RouteMetrics: Sendable {
    /// How these controllers are routed.
    package let kind: ControllerRouting
    /// Their entity.
    package let entity: String
    /// `fetchkit_delivery_latency_seconds`: from a change's commit (the feed's dating of it) to the delivery of the
    /// batch that shows it — one sample per batch a controller delivers, and per slice of followers of shared
    /// results (the slice's last delivery).
    package let latency: MetricsTimer
    /// `fetchkit_batches_delivered_total`: batches delivered to delegates and update sequences.
    package let batchesDelivered: Counter

    package init(kind: ControllerRouting, entity: String, store dimensions: [(String, String)], factory: MetricsMaker) {
        self.kind = kind
        self.entity = entity
        let dimensions = dimensions + [("entity", entity), ("route", kind.rawValue)]
        latency = factory.timer("fetchkit_delivery_latency_seconds", dimensions)
        batchesDelivered = factory.counter("fetchkit_batches_delivered_total", dimensions)
    }

    /// Records a delivery now of a batch whose oldest change was committed at `since` (`nil`: a batch no change
    /// caused, which is not timed).
    package func delivered(since: ContinuousClock.Instant?, count: Int = 1) {
        batchesDelivered.increment(by: Int64(count))
        if let since { latency.record(.now - since) }
    }
}
