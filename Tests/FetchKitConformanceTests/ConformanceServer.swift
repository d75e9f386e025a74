import FetchKit
import FetchKitPostgres
import FetchKitTestSupport
import Foundation
import Synchronization
import Testing

extension Trait where Self == ConditionTrait {
    /// The suites that need a server: without one (`DATABASE_URL` unset), each is skipped with one line saying
    /// so. With `FETCHKIT_REQUIRE_POSTGRES=1` (CI and Integration/test.sh set it) they run whatever, and a
    /// missing server fails them.
    static var requiresPostgreSQL: Self {
        .enabled(if: PostgresEnvironment.isRequiredOrConfigured, Comment(rawValue: PostgresEnvironment.skipReason))
    }
}

/// The PostgreSQL server the conformance suite runs against (`DATABASE_URL`), reached through the public API
/// alone: a store per check in a schema of its own.
enum ConformanceServer {
    /// A store of `schema` in a PostgreSQL schema (namespace) of its own, so checks running at once never see
    /// each other's tables; the database gets the `unaccent` extension.
    static func isolatedStore(
        schema: Schema, namespace: String = uniqueName("fkc"), options: PostgresStore.Options = .init(readerCount: 2)
    ) async throws -> PostgresStore {
        try await unaccentInstalled.value
        try await administer("CREATE SCHEMA \(namespace)")
        return try await PostgresStore.open(url: urlText(searchPath: namespace), schema: schema, options: options)
    }

    /// The server's URL, as text for another process, with `search_path` set to `namespace` (then `public`).
    static func urlText(searchPath namespace: String) throws -> String {
        PostgresEnvironment.url(try PostgresEnvironment.requiredURLText(), searchPath: namespace)
    }

    /// Installs `unaccent` once per test process (concurrent `CREATE EXTENSION`s race on its catalog row).
    private static let unaccentInstalled = Task {
        try await administer("CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public")
    }

    /// Runs `sql` on a connection of its own, in a transaction.
    static func administer(_ sql: String) async throws {
        try await PostgresStore.runCaptureScript(sql, url: PostgresURL(PostgresEnvironment.requiredURLText()))
    }

    private static let counter = Atomic<Int>(0)

    /// A schema name no other check uses: its prefix (`fkc`) is not the PostgreSQL tests' (`fkt`), which run in the
    /// same process with a counter of their own.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)_\(counter.add(1, ordering: .relaxed).newValue)"
    }
}
