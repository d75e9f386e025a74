import FetchKit
import FetchKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

extension Trait where Self == ConditionTrait {
    /// The suites that need a server: without one (`DATABASE_URL` unset), each is skipped with one line saying
    /// so, and `swift test` on a machine without PostgreSQL passes. With `FETCHKIT_REQUIRE_POSTGRES=1` (CI and
    /// Integration/test.sh set it) they run whatever, and a missing server fails them.
    static var requiresPostgreSQL: Self {
        .enabled(if: PostgresEnvironment.isRequiredOrConfigured, Comment(rawValue: PostgresEnvironment.skipReason))
    }
}

/// The PostgreSQL server the tests run against: `DATABASE_URL` (Integration/test.sh starts one).
enum PostgresServer {
    static func url() throws -> PostgresURL {
        try PostgresURL(requiredURLText())
    }

    /// A pool of `size` connections, each on its own thread (with `search_path` set to `searchPath`).
    static func pool(
        size: Int = 1, name: String = "fkt-pg", searchPath: String? = nil
    ) async throws -> ConnectionPool<PostgresConnection> {
        let url = try searchPath.map { try self.url(searchPath: $0) } ?? url()
        return try await ConnectionPool<PostgresConnection>.start(name: name, size: size) { _ in
            try PostgresConnection.open(url)
        }
    }

    /// A store of `schema` in a PostgreSQL schema (namespace) of its own, so tests running at once never
    /// see each other's tables; the database gets the `unaccent` extension.
    static func isolatedStore(
        schema: Schema, namespace: String = uniqueName("fkt"), options: PostgresStore.Options = .init(readerCount: 2)
    ) async throws -> PostgresStore {
        try await unaccentInstalled.value
        try await administer("CREATE SCHEMA \(namespace)")
        return try await PostgresStore.open(url: url(searchPath: namespace), schema: schema, options: options)
    }

    /// The server's URL with `search_path` set to `namespace` (then `public`, where extensions live).
    static func url(searchPath namespace: String) throws -> PostgresURL {
        try PostgresURL(urlText(searchPath: namespace))
    }

    /// ``url(searchPath:)`` as text, for another process.
    static func urlText(searchPath namespace: String) throws -> String {
        PostgresEnvironment.url(try requiredURLText(), searchPath: namespace)
    }

    static func requiredURLText() throws -> String {
        try PostgresEnvironment.requiredURLText()
    }

    /// Installs `unaccent` once per test process (concurrent `CREATE EXTENSION`s race on its catalog row).
    private static let unaccentInstalled = Task {
        try await administer("CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public")
    }

    /// Runs `sql` on a connection of its own.
    static func administer(_ sql: String) async throws {
        let admin = try await pool(name: "fkt-pg-admin")
        do {
            try await admin.run { connection in _ = try connection.run(sql) }
        } catch {
            await admin.shutDown()
            throw error
        }
        await admin.shutDown()
    }

    /// The rows `sql` returns, read on a connection of its own.
    static func query(_ sql: String) async throws -> [Row] {
        let admin = try await pool(name: "fkt-pg-query")
        do {
            let rows = try await admin.run { connection in try connection.execute(sql).rows() }
            await admin.shutDown()
            return rows
        } catch {
            await admin.shutDown()
            throw error
        }
    }

    private static let counter = Atomic<Int>(0)

    /// A table or schema name no other test uses.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)_\(counter.add(1, ordering: .relaxed).newValue)"
    }
}
