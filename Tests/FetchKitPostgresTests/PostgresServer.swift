import FetchKit
import FetchKitDrivers
import Foundation
import Synchronization

@testable import FetchKitPostgres

/// The PostgreSQL server the tests run against: `DATABASE_URL` (Integration/test.sh starts one). A test
/// that needs it fails without it — it never skips.
enum PostgresServer {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "DATABASE_URL is not set: run the tests with Integration/test.sh, which starts a PostgreSQL server"
        }
    }

    static func url() throws -> PostgresURL {
        guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"], !text.isEmpty else { throw Missing() }
        return try PostgresURL(text)
    }

    /// A pool of `size` connections, each on its own thread.
    static func pool(size: Int = 1, name: String = "fkt-pg") async throws -> ConnectionPool<PostgresConnection> {
        let url = try url()
        return try await ConnectionPool<PostgresConnection>.start(name: name, size: size) { _ in
            try PostgresConnection.open(url)
        }
    }

    private static let counter = Atomic<Int>(0)

    /// A table or schema name no other test uses.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)_\(counter.add(1, ordering: .relaxed).newValue)"
    }
}
