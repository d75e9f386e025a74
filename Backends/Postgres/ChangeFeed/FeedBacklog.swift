/// The rule both PostgreSQL feeds follow to say since when they are behind the server
/// (``FeedDelivery/lagging(since:)``): the logical feed with readings of the server's log, the trigger feed with
/// probes through the notification queue.
enum FeedBacklog {
    /// Since when the feed is behind: `nil` when nothing is out (`oldestOut`, when the oldest reading or probe the
    /// feed has not received was taken) or it has been out only a moment (less than an `interval`, while the last
    /// one received is less than two intervals old); else since `caughtUpAt` — the last reading or probe received,
    /// before which everything reached the feed — so the lag counted from there is never less than the real one.
    static func since(
        oldestOut: ContinuousClock.Instant?, caughtUpAt: ContinuousClock.Instant?, now: ContinuousClock.Instant,
        interval: Duration
    ) -> ContinuousClock.Instant? {
        guard let oldestOut else { return nil }
        let caughtUp = caughtUpAt ?? oldestOut - interval
        return now - oldestOut >= interval || now - caughtUp >= interval * 2 ? caughtUp : nil
    }
}
