/// What an orchestrator's probes ask of a store: whether the process should go on (liveness) and whether it can
/// serve live results now (readiness), with the checks behind each answer.
///
/// ```swift
/// let health = store.health(lagThreshold: .seconds(5))
/// if !health.isReady { logger.warning("not ready: \(health.checks.filter { !$0.passed })") }
/// ```
///
/// The server products mount it as two HTTP routes (`GET <path>/live`, `GET <path>/ready`) that answer 200 or
/// 503 with this value as JSON; the Operations article shows their shape for Kubernetes probes.
public struct StoreHealth: Sendable, Equatable, Codable {
    /// One check: its name (`store`, `feed`, `lag`), whether it passed, and what it saw — never a host, a URL or
    /// an error's text, since a probe's answer may be read by anyone who can reach it.
    public struct Check: Sendable, Equatable, Codable {
        /// `store`, `feed` or `lag`.
        public var name: String
        /// Whether the check passed.
        public var passed: Bool
        /// What it saw (`open`, `streaming`, `1.2 s behind (threshold 5.0 s)`).
        public var detail: String

        public init(name: String, passed: Bool, detail: String) {
            self.name = name
            self.passed = passed
            self.detail = detail
        }
    }

    /// The store is open: a liveness probe passes. A feed that reconnects is no reason to restart the process —
    /// it comes back by itself, and the controllers say they are not live meanwhile.
    public var isLive: Bool
    /// The store is open, its change feed delivers, and it is less than the threshold behind the database: a
    /// readiness probe passes, and new clients get live results.
    public var isReady: Bool
    /// The checks, in order: `store`, `feed`, `lag`.
    public var checks: [Check]

    public init(isLive: Bool, isReady: Bool, checks: [Check]) {
        self.isLive = isLive
        self.isReady = isReady
        self.checks = checks
    }

    enum CodingKeys: String, CodingKey {
        case isLive = "live"
        case isReady = "ready"
        case checks
    }
}

extension PersistentStore {
    /// The store's health at `now`: open, its change feed delivering, and behind the database by less than
    /// `lagThreshold`.
    ///
    /// - Complexity: O(1): it reads the store's feed, never the database, so a probe costs nothing under load.
    public func health(
        lagThreshold: Duration = .seconds(5), at now: ContinuousClock.Instant = .now
    ) -> StoreHealth {
        let feed = changeFeed
        let isOpen = !feed.isFinished
        var checks = [StoreHealth.Check(name: "store", passed: isOpen, detail: isOpen ? "open" : "closed")]
        var delivers = isOpen
        var lagPassed = isOpen
        var lagDetail = isOpen ? "0 s behind" : "closed"
        switch feed.delivery {
        case .streaming:
            checks.append(StoreHealth.Check(name: "feed", passed: isOpen, detail: isOpen ? "streaming" : "closed"))
        case .lagging(let since):
            checks.append(StoreHealth.Check(name: "feed", passed: isOpen, detail: isOpen ? "streaming" : "closed"))
            let lag = now - since
            lagPassed = isOpen && lag < lagThreshold
            lagDetail = "\(Self.seconds(lag)) s behind (threshold \(Self.seconds(lagThreshold)) s)"
        case .interrupted(let error):
            delivers = false
            lagPassed = false
            lagDetail = "unknown while the feed cannot deliver"
            checks.append(StoreHealth.Check(name: "feed", passed: false, detail: "interrupted (\(error.code))"))
        }
        checks.append(StoreHealth.Check(name: "lag", passed: lagPassed, detail: lagDetail))
        return StoreHealth(isLive: isOpen, isReady: isOpen && delivers && lagPassed, checks: checks)
    }

    /// `duration` in seconds, to a tenth.
    private static func seconds(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10 + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
