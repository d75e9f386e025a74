import Foundation
import Testing

@testable import FetchKitCLI

/// `fetchkit capture-sql` refuses what it cannot serve with a message (the PostgreSQL tests run the SQL it
/// prints against a server).
@Suite("fetchkit capture-sql")
struct CaptureSQLCommandTests {
    /// Without `--row-limit`, the capture subcommands print the triggers a store opened with default options
    /// installs: the library's 10,000 rows (`PostgresConfigurationTests` pins the store's side).
    @Test func theRowLimitDefaultsToTheLibrarys() throws {
        let arguments = ["--store", "postgres://app@db/app", "--entity", "todo"]
        #expect(try CaptureSQLCommand.parse(arguments).rowLimit == 10_000)
        #expect(try CaptureInstallCommand.parse(arguments).rowLimit == 10_000)
    }

    @Test func itNeedsATableAndAPostgreSQLURL() async throws {
        let noTable = try await FetchKitBinary.run(["capture-sql", "--store", "postgres://app@127.0.0.1:1/app"])
        #expect(noTable.status != 0 && noTable.output.contains("--entity"), "\(noTable.output)")
        let sqlite = try await FetchKitBinary.run([
            "capture-sql", "--store", "sqlite:///tmp/app.sqlite", "--entity", "todo"
        ])
        #expect(sqlite.status != 0 && sqlite.output.contains("not postgres"), "\(sqlite.output)")
        let secret = try await FetchKitBinary.run([
            "capture-sql", "--store", "postgres://app:S3cr-et@127.0.0.1:1/app", "--entity", "todo"
        ])
        #expect(
            secret.status != 0 && !secret.output.contains("S3cr-et") && secret.output.contains("***"),
            "\(secret.output)")
    }
}
