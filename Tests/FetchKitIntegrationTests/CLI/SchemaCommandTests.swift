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

    /// `schema apply` runs the plan, showing each statement as it runs; then nothing is left to apply. A refused
    /// change applies nothing.
    @Test func applyBringsAFileToTheSchemaWithItsProgress() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        let applied = try await FetchKitBinary.runShowingProgress(["schema", "apply", "--store", "sqlite://\(path)"])
        #expect(applied.status == 0, "\(applied.output)")
        let steps = applied.output.split(separator: "\n").filter { $0.hasPrefix("applying ") }
        let total = try #require(steps.first.flatMap { $0.split(separator: " ")[3].split(separator: ":").first })
        #expect(steps.first?.hasPrefix("applying 1 of \(total): CREATE TABLE") == true, "\(applied.output)")
        #expect(steps.count == Int(total)! + 1, "\(applied.output)")
        #expect(applied.output.contains("Applied \(total) statements."), "\(applied.output)")
        let plan = try await FetchKitBinary.run(["schema", "plan", "--store", "sqlite://\(path)"])
        #expect(plan.output == "-- the database matches the schema\n", "\(plan.output)")
        let again = try await FetchKitBinary.run(["schema", "apply", "--store", "sqlite://\(path)"])
        #expect(again.status == 0 && again.output.contains("nothing to apply"), "\(again.output)")
        // Without FETCHKIT_PROGRESS and off a terminal: no progress line.
        #expect(!again.output.contains("applying"))

        let refused = directory.path("refused.sqlite")
        let store = try await SQLiteStore.open(
            path: refused,
            schema: try Schema([
                Entity(
                    "Note", table: "note", primaryKey: .text("slug"),
                    attributes: [
                        Attribute("body", .integer)
                    ])
            ]))
        await store.close()
        let failed = try await FetchKitBinary.run(["schema", "apply", "--store", "sqlite://\(refused)"])
        #expect(failed.status != 0 && failed.output.contains("nothing was applied"), "\(failed.output)")
        let untouched = try await FetchKitBinary.run(["schema", "plan", "--store", "sqlite://\(refused)"])
        #expect(untouched.output.contains(#"CREATE TABLE IF NOT EXISTS "todo""#), "\(untouched.output)")
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
