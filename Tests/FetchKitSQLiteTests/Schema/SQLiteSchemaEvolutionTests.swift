import FetchKit
import FetchKitTestSupport
import FetchKitTesting
import Testing

@testable import FetchKitSQLite

/// Schema plans on SQLite: the DDL a new attribute takes, applied under a live controller, at open under the
/// evolve policy, and carried by a mismatch at open.
@Suite("SQLite store: schema plans")
struct SQLiteSchemaEvolutionTests {
    static let expectedSQL = """
        ALTER TABLE "task" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE "task" ADD COLUMN "due" INTEGER;
        CREATE INDEX IF NOT EXISTS "task_due_idx" ON "task" ("due");

        """

    @Test("a plan applied through a running store keeps its controller exact; a new store then validates")
    func applyUnderLiveController() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("tasks.sqlite")
        let store = try await SQLiteStore.open(
            path: path, schema: SchemaEvolutionScenario.version1, options: .testing())
        let plan = try await SchemaEvolutionScenario.run(on: store)
        #expect(plan.sql == Self.expectedSQL)
        #expect(plan.refusals.isEmpty && plan.notes.isEmpty)
        #expect(try await SchemaEvolutionScenario.version2.plan(against: store).isEmpty)
        await store.close()

        let evolved = try await SQLiteStore.open(
            path: path, schema: SchemaEvolutionScenario.version2,
            options: SQLiteStore.Options(readerCount: 1, schemaPolicy: .validateOnly))
        #expect(
            try await SchemaEvolutionScenario.priorities(in: evolved) == ["a": 5, "b": 0, "c": 9, "e": 0])
        await evolved.close()
        #expect(try await SQLiteStore.plan(path: path, schema: SchemaEvolutionScenario.version2).isEmpty)
    }

    @Test("a mismatch at open says which DDL brings the database to the schema")
    func mismatchCarriesDDL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("tasks.sqlite")
        let first = try await SQLiteStore.open(
            path: path, schema: SchemaEvolutionScenario.version1, options: .testing())
        await first.close()
        let error = try await #require(throws: FetchKitError.self) {
            _ = try await SQLiteStore.open(path: path, schema: SchemaEvolutionScenario.version2, options: .testing())
        }
        #expect(error.code == .schemaMismatch && error.table == "task")
        #expect(error.suggestedSQL == Self.expectedSQL)
        // The description holds the SQL on one line, as a log line does.
        let oneLine = Self.expectedSQL.split(separator: "\n").joined(separator: " ")
        #expect(error.description.hasSuffix("; to bring the database to the schema, run: " + oneLine))
        #expect(!error.description.contains("\n"))
    }

    @Test("the evolve policy applies the plan at open; a destructive change opens nothing and names the column")
    func evolvePolicy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("tasks.sqlite")
        let evolve = SQLiteStore.Options(readerCount: 1, schemaPolicy: .evolve)
        let first = try await SQLiteStore.open(path: path, schema: SchemaEvolutionScenario.version1, options: evolve)
        try await first.write { tx in _ = try tx.insert(["title": "kept"], into: "Task") }
        await first.close()
        let second = try await SQLiteStore.open(path: path, schema: SchemaEvolutionScenario.version2, options: evolve)
        #expect(try await SchemaEvolutionScenario.priorities(in: second) == ["kept": 0])
        await second.close()

        let retyped = try Schema([
            Entity("Task", table: "task", attributes: [Attribute("title", .integer), Attribute("done", .bool)])
        ])
        let error = try await #require(throws: FetchKitError.self) {
            _ = try await SQLiteStore.open(path: path, schema: retyped, options: evolve)
        }
        #expect(error.code == .schemaMismatch)
        #expect(
            error.message.contains("table 'task', column 'title': the column is TEXT, but Task.title is an integer"))
        #expect(error.message.contains("FetchKit does not change a column's type"))
        let plan = try await SQLiteStore.plan(path: path, schema: retyped)
        #expect(plan.refusals.map(\.column) == ["title"])
        #expect(plan.description.contains("-- note: table 'task', column 'priority'"))
    }
}
