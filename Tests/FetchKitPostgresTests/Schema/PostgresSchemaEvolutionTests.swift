import FetchKit
import FetchKitTesting
import Testing

@testable import FetchKitPostgres

/// Schema plans on a real server: the DDL a new attribute takes, applied under a live controller (both feeds), at
/// open under the evolve policy, and carried by a mismatch at open; change capture as SQL to install and remove.
@Suite("PostgreSQL: schema plans", .requiresPostgreSQL)
struct PostgresSchemaEvolutionTests {
    static let expectedSQL = """
        ALTER TABLE "task" ADD COLUMN "priority" BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE "task" ADD COLUMN "due" TIMESTAMPTZ;
        CREATE INDEX IF NOT EXISTS "task_due_idx" ON "task" ("due");

        """

    /// Runs the scenario on a store of its own namespace; then a store opened with the new schema validates.
    static func applyUnderLiveController(options: PostgresStore.Options) async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: SchemaEvolutionScenario.version1, namespace: namespace, options: options)
        let plan = try await SchemaEvolutionScenario.run(on: store)
        #expect(plan.sql == expectedSQL)
        #expect(plan.refusals.isEmpty && plan.notes.isEmpty)
        await store.close()

        var validating = options
        validating.schemaPolicy = .validateOnly
        let evolved = try await PostgresStore.open(
            url: PostgresServer.url(searchPath: namespace), schema: SchemaEvolutionScenario.version2,
            options: validating)
        #expect(try await SchemaEvolutionScenario.priorities(in: evolved) == ["a": 5, "b": 0, "c": 9, "e": 0])
        #expect(try await SchemaEvolutionScenario.version2.plan(against: evolved).isEmpty)
        await evolved.close()
    }

    @Test func aPlanAppliedUnderTheTriggerFeedKeepsItsControllerExact() async throws {
        try await Self.applyUnderLiveController(options: PostgresStore.Options(readerCount: 2))
    }

    @Test func aPlanAppliedUnderTheLogicalFeedKeepsItsControllerExact() async throws {
        try await Self.applyUnderLiveController(options: LogicalFeedTests.logicalOptions())
    }

    @Test func aMismatchAtOpenCarriesTheDDL() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        let first = try await PostgresServer.isolatedStore(
            schema: SchemaEvolutionScenario.version1, namespace: namespace)
        await first.close()
        let error = try await #require(throws: FetchKitError.self) {
            _ = try await PostgresStore.open(
                url: PostgresServer.url(searchPath: namespace), schema: SchemaEvolutionScenario.version2)
        }
        #expect(error.code == .schemaMismatch && error.table == "task")
        #expect(error.suggestedSQL == Self.expectedSQL)
        // The description holds the SQL on one line, as a log line does.
        let oneLine = Self.expectedSQL.split(separator: "\n").joined(separator: " ")
        #expect(error.description.hasSuffix("; to bring the database to the schema, run: " + oneLine))
        #expect(!error.description.contains("\n"))
        let url = try PostgresServer.url(searchPath: namespace)
        #expect(
            try await PostgresStore.plan(url: url, schema: SchemaEvolutionScenario.version2).sql == Self.expectedSQL)
    }

    @Test func theEvolvePolicyAppliesThePlanAndRefusesATypeChange() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        var evolve = PostgresStore.Options(readerCount: 1)
        evolve.schemaPolicy = .evolve
        let first = try await PostgresServer.isolatedStore(
            schema: SchemaEvolutionScenario.version1, namespace: namespace, options: evolve)
        try await first.write { tx in _ = try tx.insert(["title": "kept"], into: "Task") }
        await first.close()
        let url = try PostgresServer.url(searchPath: namespace)
        let second = try await PostgresStore.open(url: url, schema: SchemaEvolutionScenario.version2, options: evolve)
        #expect(try await SchemaEvolutionScenario.priorities(in: second) == ["kept": 0])
        // The store installed the capture of the table, new columns and all: a write reaches a controller.
        let controller = ResultsController(store: second, request: SchemaEvolutionScenario.request)
        try await controller.performFetch()
        try await second.write { tx in _ = try tx.insert(["title": "new", "priority": 3], into: "Task") }
        await controller.sync()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: second)
        #expect(controller.fetchedObjects.count == 2)
        await second.close()

        let retyped = try Schema([
            Entity("Task", table: "task", attributes: [Attribute("title", .integer), Attribute("done", .bool)])
        ])
        let error = try await #require(throws: FetchKitError.self) {
            _ = try await PostgresStore.open(url: url, schema: retyped, options: evolve)
        }
        #expect(error.code == .schemaMismatch)
        #expect(
            error.message.contains("table 'task', column 'title': the column is text, but Task.title is an integer"))
    }

    @Test func changeCaptureInstallsAndRemovesAsSQL() async throws {
        let removal = PostgresStore.removeChangeCaptureSQL(for: SchemaEvolutionScenario.version1, namespace: "app")
        #expect(removal.hasPrefix("BEGIN;\nDO $lock$"))
        #expect(removal.contains(#"DROP TRIGGER IF EXISTS "fetchkit_capture_insert" ON "app"."task";"#))
        #expect(removal.hasSuffix("DROP SCHEMA IF EXISTS \"fetchkit\" CASCADE;\nCOMMIT;\n"))

        let namespace = PostgresServer.uniqueName("fkt")
        let store = try await PostgresServer.isolatedStore(
            schema: SchemaEvolutionScenario.version1, namespace: namespace)
        await store.close()
        // Drops this table's triggers only: the shared function stays for the tests running beside this one.
        for event in ["insert", "update", "delete", "truncate"] {
            try await PostgresServer.administer(#"DROP TRIGGER "fetchkit_capture_\#(event)" ON "\#(namespace)"."task""#)
        }
        let url = try PostgresServer.url(searchPath: namespace)
        let count = #"SELECT count(*)::int8 AS n FROM pg_trigger WHERE tgrelid = '"\#(namespace)"."task"'::regclass"#
        #expect(try await PostgresServer.query(count).first?["n", as: Int64.self] == 0)
        let install = try await PostgresStore.changeCaptureSQL(forTables: ["task"], url: url)
        try await PostgresStore.runCaptureScript(install, url: url)
        #expect(try await PostgresServer.query(count).first?["n", as: Int64.self] == 4)
        let uninstall = try await PostgresStore.removeChangeCaptureSQL(forTables: ["task"], url: url)
        #expect(uninstall.contains(#"ON "\#(namespace)"."task";"#))
    }
}
