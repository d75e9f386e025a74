/// Whether a controller reports itself behind the store: a value-type state machine told each measured lag
/// (the time since the oldest change it has not applied was published), deciding what its status says.
///
/// It enters ``ResultsStatus/catchingUp(lag:)`` once the lag exceeds ``threshold`` and leaves it — back to
/// ``ResultsStatus/live`` — once the lag is at most half of it (hysteresis: a lag hovering at the threshold
/// does not flap). While behind, the reported lag moves in steps of ``step``, so status readers are told of a
/// lag that grows or shrinks, not of every measurement.
struct DeliveryLag: Sendable, Equatable {
    /// A lag above this is reported.
    static let threshold = Duration.seconds(1)
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
            next = lag <= Self.threshold / 2 ? nil : Self.rounded(lag)
        } else {
            next = lag > Self.threshold ? Self.rounded(lag) : nil
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
