import Foundation
import Logging

#if Configuration
    import Configuration
#endif

/// How a deployment configures its store: the URL that picks the backend, the reader count and logging,
/// and the source each backend reads its own keys from. Read it from environment variables and an optional
/// JSON file with `reader(environment:jsonFile:)` (the `Configuration` package trait, on by default), then open
/// the store through a ``StoreRegistry``.
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
    /// The logger FetchKit logs through: by default the task's (`Logger.current`), at the level configured.
    public var logger: Logger
    #if Configuration
        /// Where the configuration was read from, for the backend's own keys; `nil` for one built in code
        /// (every backend setting then takes its default: open the backend directly to set them in code).
        public var reader: ConfigReader?
    #endif

    /// A configuration of `url` with every other setting at the backend's default.
    public init(url: String, logger: Logger = .current) {
        self.url = url
        self.logger = logger
    }

    /// ``url`` with every secret replaced by `***`, for messages and logs: the password of its user info, the
    /// value of every secret keyword (`password`, `sslpassword`, … in any case, however written), and a
    /// password mistaken for a port where the `@host` was forgotten.
    public var redactedURL: String { SecretRedaction.redact(url) }

}
