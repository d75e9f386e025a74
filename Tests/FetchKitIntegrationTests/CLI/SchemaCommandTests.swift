import FetchKit
import FetchKitSQLite
import FetchKitTestSupport
import Foundation
import Testing

/// `fetchkit schema plan` on SQLite files (the PostgreSQL tests plan against a server through the API it calls),
/// and `fetchkit capture` on a SQLite store.
@Suite("fetchkit schema plan and capture")
struct SchemaCommandTests {
    @Test func aNewFileGetsEveryTableAMatchingOneNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        let fresh = try await FetchKitBinary.run(["schema", "plan", "--store", "sqlite://\(path)"])
        #expect(fresh.status == 0, "\(fresh.output)")
        #expect(fresh.output.contains(#"CREATE TABLE IF NOT EXISTS "todo" ("#), "\(fresh.output)")
        #expect(fresh.output.contains(#"CREATE INDEX IF NOT EXISTS "todo_title_idx" ON "todo" ("title");"#))

        let query = try await FetchKitBinary.run(["query", "--path", path])
        #expect(query.status == 0, "\(query.output)")
        let matching = try await FetchKitBinary.run(["schema", "plan", "--store", "sqlite://\(path)"])
        #expect(matching.status == 0 && matching.output == "-- the database matches the schema\n", "\(matching.output)")
    }

    @Test func aRefusedChangeIsPrintedAndFailsTheCommand() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        let retyped = try Schema([
            Entity(
                "Note", table: "note", primaryKey: .text("slug"),
                attributes: [
                    Attribute("body", .integer), Attribute("pinned", .bool)
                ])
        ])
        let store = try await SQLiteStore.open(path: path, schema: retyped)
        await store.close()
        let plan = try await FetchKitBinary.run(["schema", "plan", "--store", "sqlite://\(path)"])
        #expect(plan.status != 0, "\(plan.output)")
        #expect(
            plan.output.contains("-- refused: table 'note', column 'body': the column is INTEGER"), "\(plan.output)")
        #expect(plan.output.contains("1 change is refused"), "\(plan.output)")
    }

    @Test func captureOnSQLiteHasNothingToInstall() async throws {
        for action in ["install", "uninstall"] {
            let run = try await FetchKitBinary.run([
                "capture", action, "--store", "sqlite:///tmp/app.sqlite", "--entity", "todo"
            ])
            #expect(run.status == 0 && run.output.contains("nothing to do"), "\(run.output)")
        }
    }
}
