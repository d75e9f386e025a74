/// Whether a controller reports itself behind the store: a value-type state machine told each measured lag
/// (the time since the oldest change it has not applied committed), deciding what its status says.
///
/// It enters ``ResultsStatus/catchingUp(lag:)`` once the lag exceeds ``threshold`` and leaves it — back to
/// ``ResultsStatus/live`` — once the lag is at most half of it (hysteresis: a lag hovering at the threshold
/// does not flap). While behind, the reported lag moves in steps of ``step``, so status readers are told of a
/// lag that grows or shrinks, not of every measurement.
struct DeliveryLag: Sendable, Equatable {
    /// The default threshold: a quarter of a second. A healthy store delivers a commit to thousands of
    /// controllers in milliseconds (tens at the 99th percentile with a million subscribers), so a healthy
    /// controller never reaches it; a person notices a list that lags by more than about this much, so a status
    /// that waited longer would say `.live` over results a user can see are stale.
    static let defaultThreshold = Duration.milliseconds(250)

    /// A lag above this is reported.
    var threshold = Self.defaultThreshold
    /// The resolution of the reported lag.
    static let step = Duration.milliseconds(100)

    /// The lag reported, while behind.
    private(set) var reported: Duration?

    /// Whether the controller reports itself behind.
    var isBehind: Bool { reported != nil }

    /// A measured lag.
    ///
    /// - Returns: `true` when what the status should say changed (``status`` then says what).
    mutating func observe(_ lag: Duration) -> Bool {
        let next: Duration?
        if reported != nil {
            next = lag <= threshold / 2 ? nil : Self.rounded(lag)
        } else {
            next = lag > threshold ? Self.rounded(lag) : nil
        }
        defer { reported = next }
        return next != reported
    }

    /// What the status says while the controller follows the store: ``ResultsStatus/catchingUp(lag:)`` or
    /// ``ResultsStatus/live``.
    var status: ResultsStatus { reported.map { .catchingUp(lag: $0) } ?? .live }

    /// `lag` rounded down to a ``step``.
    static func rounded(_ lag: Duration) -> Duration {
        step * Int(lag / step)
    }
}
