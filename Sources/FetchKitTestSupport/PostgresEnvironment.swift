import Foundation

/// The PostgreSQL server the tests run against, as the environment names it: `DATABASE_URL` (Integration/test.sh
/// starts one), and `FETCHKIT_REQUIRE_POSTGRES=1` where a missing server is a failure (CI).
public enum PostgresEnvironment {
    /// Whether the server's suites run: `DATABASE_URL` is set, or `FETCHKIT_REQUIRE_POSTGRES=1` says a missing
    /// server is a failure.
    public static var isRequiredOrConfigured: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["FETCHKIT_REQUIRE_POSTGRES"] == "1" || !(environment["DATABASE_URL"] ?? "").isEmpty
    }

    /// The reason the server's suites give without a server.
    public static let skipReason = "no PostgreSQL server: set DATABASE_URL, or run Integration/test.sh"

    /// `DATABASE_URL` is not set.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "DATABASE_URL is not set: run the tests with Integration/test.sh, which starts a PostgreSQL server"
        }
    }

    /// `DATABASE_URL`.
    ///
    /// - Throws: ``Missing`` when it is not set.
    public static func requiredURLText() throws -> String {
        guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"], !text.isEmpty else { throw Missing() }
        return text
    }

    /// `url` with `search_path` set to `namespace` (then `public`, where extensions live).
    public static func url(_ url: String, searchPath namespace: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(namespace),public"
    }
}
