import Configuration
import Foundation
import Logging
import SystemPackage

/// How a deployment configures its store: the URL that picks the backend, the reader count and logging,
/// and the source each backend reads its own keys from. Read it from environment variables and an optional
/// JSON file with ``reader(environment:jsonFile:)``, then open the store through a ``StoreRegistry``.
///
/// The core's keys:
///
/// - `fetchkit.store.url` (`FETCHKIT_STORE_URL`): `sqlite:///path`, `sqlite::memory:`, `postgres://…` (a secret),
///   required.
/// - `fetchkit.store.readers` (`FETCHKIT_STORE_READERS`): reader connections, default the backend's (4).
/// - `fetchkit.log.level` (`FETCHKIT_LOG_LEVEL`): `trace` … `critical`; FetchKit logs at info or below, default no
///   logging.
///
/// A backend reads its own keys under its prefix from ``reader`` when it opens (`fetchkit.sqlite.*` in
/// FetchKitSQLite, `fetchkit.postgres.*` in FetchKitPostgres; their `Options` document them), with
/// ``positiveInteger(_:)`` and ``secret(_:)`` for the common cases.
public struct StoreConfiguration: Sendable {
    /// The store's URL; its scheme picks the backend. It may hold a password: never log it as is (see
    /// ``redactedURL``).
    public var url: String
    /// Reader connections (`nil`: the backend's default).
    public var readerCount: Int?
    /// The logger FetchKit logs through (a silent one unless a level is configured).
    public var logger: Logger
    /// Where the configuration was read from, for the backend's own keys; `nil` for one built in code
    /// (every backend setting then takes its default: open the backend directly to set them in code).
    public var reader: ConfigReader?

    /// A configuration of `url` with every other setting at the backend's default.
    public init(url: String, logger: Logger = Logger(label: "fetchkit", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.url = url
        self.logger = logger
    }

    /// ``url`` with every secret replaced by `***`, for messages and logs: the password of its user info, the
    /// value of every secret keyword (`password`, `sslpassword`, … in any case, however written), and a
    /// password mistaken for a port where the `@host` was forgotten.
    public var redactedURL: String { SecretRedaction.redact(url) }

    /// Reads the core's keys (see the table above) from `reader`, and keeps it for the backend's.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` naming the key when the URL is missing or a value is out
    ///   of range (a value of the wrong type is reported by swift-configuration).
    public init(reader: ConfigReader) throws {
        guard let url = reader.string(forKey: "fetchkit.store.url", isSecret: true), !url.isEmpty else {
            throw FetchKitError.invalidValue("no store URL: set fetchkit.store.url (environment FETCHKIT_STORE_URL)")
        }
        var logger = Logger(label: "fetchkit", factory: { _ in SwiftLogNoOpLogHandler() })
        if let level = reader.string(forKey: "fetchkit.log.level") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw FetchKitError.invalidValue(
                    "fetchkit.log.level '\(level)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            logger = Logger(label: "fetchkit")
            logger.logLevel = parsed
        }
        self.init(url: url, logger: logger)
        self.reader = reader
        readerCount = try positiveInteger("fetchkit.store.readers")
    }

    /// The value of the integer key `key` in ``reader``, `nil` when it is not set (or there is no reader).
    ///
    /// ```swift
    /// options.pollInterval = try configuration.positiveInteger("fetchkit.mystore.pollMilliseconds")
    ///     .map { .milliseconds($0) }
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` naming the key when the value is zero or negative.
    public func positiveInteger(_ key: String) throws -> Int? {
        guard let value = reader?.int(forKey: ConfigKey(key)) else { return nil }
        guard value > 0 else { throw FetchKitError.invalidValue("\(key) must be positive (got \(value))") }
        return value
    }

    /// The non-empty text of the secret key `key` in ``reader`` (a password or a URL holding one: never
    /// logged), `nil` when it is not set.
    public func secret(_ key: String) -> String? {
        reader?.string(forKey: ConfigKey(key), isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A reader over environment variables (a key's components upper-cased, camel case split and joined by
    /// `_`: `FETCHKIT_STORE_URL`, `FETCHKIT_POSTGRES_KEEPALIVE_COUNT`, …) and, under them, the JSON file at
    /// `jsonFile` when given (`{"fetchkit": {"store": {"url": "…"}}}`); variables ending in `_URL` or `PASSWORD`
    /// are treated as secrets.
    ///
    /// - Throws: when the JSON file cannot be read or parsed.
    public static func reader(
        environment: [String: String] = ProcessInfo.processInfo.environment, jsonFile: String? = nil
    ) async throws -> ConfigReader {
        let variables = EnvironmentVariablesProvider(
            environmentVariables: environment,
            secretsSpecifier: .dynamic { name, _ in name.hasSuffix("_URL") || name.hasSuffix("PASSWORD") })
        guard let jsonFile else { return ConfigReader(provider: variables) }
        let file = try await FileProvider<JSONSnapshot>(filePath: FilePath(jsonFile))
        return ConfigReader(providers: [variables, file])
    }
}
