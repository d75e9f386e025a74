import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// `fetchkit explain` says how a live query would be routed and what its fetch runs, on an existing database.
@Suite("fetchkit explain")
struct ExplainCommandTests {
    @Test func explainsTheRouteAndTheSQL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("explained.sqlite")
        let store = try await SQLiteStore.open(path: file, schema: Fixtures.schema, options: .testing())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        await store.close()
        let base = ["explain", "--store", "sqlite://\(file)", "--entity", "todo"]

        let equality = try await ChildProcess.run(
            try FetchKitBinary.url, base + ["--where", "category_id == 2", "--sort", "title"])
        #expect(equality.status == 0, "\(equality.output)")
        let lines = equality.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "route: equality on category_id: a changed row reaches it only with a value it asks for")
        #expect(lines.contains("membership: decided in memory, as the database would decide it"), "\(lines)")
        #expect(lines.contains("tables: todo"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("SQL: SELECT ") && $0.contains(#"ORDER BY t0."title" ASC"#) }, "\(lines)")
        #expect(lines.contains("  $1 = 2"), "\(lines)")

        let range = try await ChildProcess.run(
            try FetchKitBinary.url, base + ["--where", "priority BETWEEN {1, 3}", "--limit", "2"])
        #expect(range.output.hasPrefix("route: range on priority"), "\(range.output)")
        let scan = try await ChildProcess.run(try FetchKitBinary.url, base + ["--where", "priority == 3 OR done == 1"])
        #expect(scan.output.hasPrefix("route: scan"), "\(scan.output)")

        let unknown = try await ChildProcess.run(try FetchKitBinary.url, base + ["--where", "nope == 1"])
        #expect(unknown.status != 0 && unknown.output.contains("nope"), "\(unknown.output)")
    }
}
