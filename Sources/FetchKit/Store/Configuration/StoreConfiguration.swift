import Configuration
import Foundation
import Logging
import SystemPackage

/// How a deployment configures its store: the URL that picks the backend, and the tuning every backend
/// reads what it needs from. Read it from environment variables and an optional JSON file with
/// ``reader(environment:jsonFile:)``, then open the store through a ``StoreRegistry``.
///
/// | Key | Environment variable | Meaning | Default |
/// |---|---|---|---|
/// | `fetchkit.store.url` | `FETCHKIT_STORE_URL` | `sqlite:///path`, `sqlite::memory:`, `postgres://…` (a secret) | required |
/// | `fetchkit.store.readers` | `FETCHKIT_STORE_READERS` | reader connections | the backend's (4) |
/// | `fetchkit.sqlite.dataVersionPollMilliseconds` | `FETCHKIT_SQLITE_DATA_VERSION_POLL_MILLISECONDS` | how often SQLite looks for other processes' commits | the backend's |
/// | `fetchkit.postgres.keepaliveIdleSeconds` | `FETCHKIT_POSTGRES_KEEPALIVE_IDLE_SECONDS` | TCP keepalive idle time | 5 |
/// | `fetchkit.postgres.keepaliveIntervalSeconds` | `FETCHKIT_POSTGRES_KEEPALIVE_INTERVAL_SECONDS` | between keepalive probes | 2 |
/// | `fetchkit.postgres.keepaliveCount` | `FETCHKIT_POSTGRES_KEEPALIVE_COUNT` | unanswered probes before a connection is broken | 3 |
/// | `fetchkit.postgres.reconnectMinMilliseconds` | `FETCHKIT_POSTGRES_RECONNECT_MIN_MILLISECONDS` | first reconnection wait of the listener | 50 |
/// | `fetchkit.postgres.reconnectMaxMilliseconds` | `FETCHKIT_POSTGRES_RECONNECT_MAX_MILLISECONDS` | longest reconnection wait | 5000 |
/// | `fetchkit.postgres.listenerURL` | `FETCHKIT_POSTGRES_LISTENER_URL` | a direct connection for the change listener when `url` goes through a transaction-mode pooler (a secret) | the store's URL |
/// | `fetchkit.postgres.pingTimeoutMilliseconds` | `FETCHKIT_POSTGRES_PING_TIMEOUT_MILLISECONDS` | how long the listener waits for a ping's answer | 2000 |
/// | `fetchkit.postgres.publishTimeoutMilliseconds` | `FETCHKIT_POSTGRES_PUBLISH_TIMEOUT_MILLISECONDS` | how long a write waits for its change before the listener checks its connection | 2000 |
/// | `fetchkit.postgres.notificationRowLimit` | `FETCHKIT_POSTGRES_NOTIFICATION_ROW_LIMIT` | above it a statement notifies a table-level hint | 1000 |
/// | `fetchkit.log.level` | `FETCHKIT_LOG_LEVEL` | `trace` … `critical`; FetchKit logs at info or below | no logging |
public struct StoreConfiguration: Sendable {
    /// The store's URL; its scheme picks the backend. It may hold a password: never log it as is (see
    /// ``redactedURL``).
    public var url: String
    /// Reader connections (`nil`: the backend's default).
    public var readerCount: Int?
    /// SQLite: how often to look for commits by other processes (`nil`: the backend's default).
    public var dataVersionPollInterval: Duration?
    /// PostgreSQL: TCP keepalive idle time before the first probe (`nil`: the backend's default).
    public var keepaliveIdle: Duration?
    /// PostgreSQL: the time between keepalive probes (`nil`: the backend's default).
    public var keepaliveInterval: Duration?
    /// PostgreSQL: unanswered probes before a connection counts as broken (`nil`: the backend's default).
    public var keepaliveCount: Int?
    /// PostgreSQL: the listener's reconnection backoff (`nil`: the backend's default).
    public var reconnectBackoff: ClosedRange<Duration>?
    /// PostgreSQL: the URL the change listener connects to, when not ``url`` (`nil`): a direct connection
    /// when ``url`` goes through a transaction-mode pooler. It may hold a password (see ``redact(_:)``).
    public var listenerURL: String?
    /// PostgreSQL: how long the listener waits for a ping's answer (`nil`: the backend's default).
    public var pingTimeout: Duration?
    /// PostgreSQL: how long a write waits for its change to be published before the listener checks its
    /// connection (`nil`: the backend's default).
    public var publishTimeout: Duration?
    /// PostgreSQL: the row count above which a statement notifies a table-level hint (`nil`: the default).
    public var notificationRowLimit: Int?
    /// The logger FetchKit logs through (a silent one unless a level is configured).
    public var logger: Logger

    /// A configuration of `url` with every other setting at the backend's default.
    public init(url: String, logger: Logger = Logger(label: "fetchkit", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.url = url
        self.logger = logger
    }

    /// ``url`` with any password replaced by `***`, for messages and logs.
    public var redactedURL: String { Self.redact(url) }

    /// Reads the configuration's keys (see the table above) from `reader`.
    ///
    /// - Throws: ``FetchKitError/invalidValue(_:)`` naming the key when the URL is missing or a value is out
    ///   of range (a value of the wrong type is reported by swift-configuration).
    public init(reader: ConfigReader) throws {
        guard let url = reader.string(forKey: "fetchkit.store.url", isSecret: true), !url.isEmpty else {
            throw FetchKitError.invalidValue("no store URL: set fetchkit.store.url (environment FETCHKIT_STORE_URL)")
        }
        var logger = Logger(label: "fetchkit", factory: { _ in SwiftLogNoOpLogHandler() })
        if let level = reader.string(forKey: "fetchkit.log.level") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw FetchKitError.invalidValue("fetchkit.log.level '\(level)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            logger = Logger(label: "fetchkit")
            logger.logLevel = parsed
        }
        self.init(url: url, logger: logger)
        func positive(_ key: String) throws -> Int? {
            guard let value = reader.int(forKey: ConfigKey(key)) else { return nil }
            guard value > 0 else { throw FetchKitError.invalidValue("\(key) must be positive (got \(value))") }
            return value
        }
        readerCount = try positive("fetchkit.store.readers")
        dataVersionPollInterval = try positive("fetchkit.sqlite.dataVersionPollMilliseconds").map { .milliseconds($0) }
        keepaliveIdle = try positive("fetchkit.postgres.keepaliveIdleSeconds").map { .seconds($0) }
        keepaliveInterval = try positive("fetchkit.postgres.keepaliveIntervalSeconds").map { .seconds($0) }
        keepaliveCount = try positive("fetchkit.postgres.keepaliveCount")
        notificationRowLimit = try positive("fetchkit.postgres.notificationRowLimit")
        listenerURL = reader.string(forKey: "fetchkit.postgres.listenerURL", isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
        pingTimeout = try positive("fetchkit.postgres.pingTimeoutMilliseconds").map { .milliseconds($0) }
        publishTimeout = try positive("fetchkit.postgres.publishTimeoutMilliseconds").map { .milliseconds($0) }
        let minimum = try positive("fetchkit.postgres.reconnectMinMilliseconds")
        let maximum = try positive("fetchkit.postgres.reconnectMaxMilliseconds")
        if minimum != nil || maximum != nil {
            let low = minimum ?? 50
            let high = maximum ?? max(low, 5_000)
            guard low <= high else {
                throw FetchKitError.invalidValue(
                    "fetchkit.postgres.reconnectMinMilliseconds (\(low)) exceeds reconnectMaxMilliseconds (\(high))")
            }
            reconnectBackoff = .milliseconds(low)...(.milliseconds(high))
        }
    }

    /// A reader over environment variables (a key's components upper-cased, camel case split and joined by
    /// `_`: `FETCHKIT_STORE_URL`, `FETCHKIT_POSTGRES_KEEPALIVE_COUNT`, …) and, under them, the JSON file at
    /// `jsonFile` when given (`{"fetchkit": {"store": {"url": "…"}}}`); the URL is treated as a secret.
    ///
    /// - Throws: when the JSON file cannot be read or parsed.
    public static func reader(
        environment: [String: String] = ProcessInfo.processInfo.environment, jsonFile: String? = nil
    ) async throws -> ConfigReader {
        let variables = EnvironmentVariablesProvider(
            environmentVariables: environment, secretsSpecifier: .specific(["FETCHKIT_STORE_URL", "FETCHKIT_POSTGRES_LISTENER_URL"]))
        guard let jsonFile else { return ConfigReader(provider: variables) }
        let file = try await FileProvider<JSONSnapshot>(filePath: FilePath(jsonFile))
        return ConfigReader(providers: [variables, file])
    }

    /// `url` with the password of its `user:password@` part and of a `password=` parameter replaced by `***`.
    ///
    /// It errs on the side of hiding: the user info runs to the *last* `@` (a password may hold `@`, `/`, `?`
    /// or `#` unencoded), and a URL without `://` (a typo: `postgres//app:pw@host`) keeps only what follows its
    /// last `@`.
    static func redact(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            if let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                text.replaceSubrange(rest.index(after: colon)..<at, with: "***")
            }
        } else if let at = text.lastIndex(of: "@") {
            text.replaceSubrange(text.startIndex..<at, with: "***")
        }
        if let range = text.range(of: "password=") {
            let end = text[range.upperBound...].firstIndex(where: { "&#".contains($0) }) ?? text.endIndex
            text.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return text
    }
}
