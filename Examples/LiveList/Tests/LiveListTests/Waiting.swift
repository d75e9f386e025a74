/// A condition that did not become true in time.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Polls `condition` every `interval` until it holds; throws ``TimedOut`` naming `what` after `timeout`.
func waitUntil(
    _ what: String, timeout: Duration = .seconds(15), interval: Duration = .milliseconds(50),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: interval)
    }
    throw TimedOut(description: "timed out waiting until \(what)")
}
