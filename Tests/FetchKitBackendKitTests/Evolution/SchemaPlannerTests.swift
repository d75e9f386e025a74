@_spi(Backend) import FetchKit
import Foundation
import Testing

@testable import FetchKitBackendKit

/// The pure planner: a declared schema against a database described by hand, no database.
@Suite("Schema plans: additive steps, refusals and notes")
struct SchemaPlannerTests {
    typealias Column = DatabaseDescription.Column

    static let version1 = Entity(
        "Task", table: "task",
        attributes: [Attribute("title", .text), Attribute("done", .bool, default: false)])
    static let version2 = Entity(
        "Task", table: "task",
        attributes: [
            Attribute("title", .text), Attribute("done", .bool, default: false),
            Attribute("priority", .integer, default: 0), Attribute("due", .date, optional: true, indexed: true)
        ])

    /// The table of ``version1`` as SQLite describes it.
    static let described = DatabaseDescription.Table(
        name: "task",
        columns: [
            Column(name: "id", declaredType: "INTEGER", accepts: [.integer, .bool, .date], isNullable: true),
            Column(name: "title", declaredType: "TEXT", accepts: [.text], isNullable: false),
            Column(name: "done", declaredType: "INTEGER", accepts: [.integer, .bool, .date], isNullable: false)
        ], primaryKey: ["id"])

    static func plan(
        _ entities: [Entity], _ tables: [DatabaseDescription.Table], dialect: SQLDialect = TestDialects.question
    ) throws -> SchemaPlan {
        SchemaPlanner(schema: try Schema(entities), dialect: dialect)
            .plan(against: DatabaseDescription(tables: tables, namesIgnoreCase: true))
    }

    @Test("an empty database gets its tables, then their indexes")
    func createsTables() throws {
        let plan = try Self.plan([Self.version2], [])
        #expect(plan.steps.map(\.kind) == [.createTable, .createIndex(column: "due", name: "task_due_idx")])
        #expect(
            plan.sql == #"CREATE TABLE IF NOT EXISTS "task" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "#
                + #""done" INTEGER NOT NULL, "priority" INTEGER NOT NULL, "due" INTEGER)"# + ";\n"
                + #"CREATE INDEX IF NOT EXISTS "task_due_idx" ON "task" ("due");"# + "\n")
        #expect(plan.refusals.isEmpty && !plan.isEmpty)
    }

    @Test("a new attribute is an added column with its default; a new indexed one gets its index")
    func addsColumns() throws {
        let plan = try Self.plan([Self.version2], [Self.described])
        #expect(
            plan.sql == #"ALTER TABLE "task" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0;"# + "\n"
                + #"ALTER TABLE "task" ADD COLUMN "due" INTEGER;"# + "\n"
                + #"CREATE INDEX IF NOT EXISTS "task_due_idx" ON "task" ("due");"# + "\n")
        #expect(plan.refusals.isEmpty && plan.notes.isEmpty)
        let postgres = try Self.plan([Self.version2], [Self.described], dialect: TestDialects.dollar)
        #expect(postgres.sql.contains(#"ADD COLUMN "priority" BIGINT NOT NULL DEFAULT 0;"#))
        #expect(postgres.sql.contains(#"ADD COLUMN "due" TIMESTAMPTZ;"#))
    }

    @Test("a database that matches plans nothing; an existing index by another name counts")
    func matches() throws {
        #expect(try Self.plan([Self.version1], [Self.described]).isEmpty)
        var table = Self.described
        table.columns += [
            Column(name: "priority", declaredType: "INTEGER", accepts: [.integer], isNullable: false),
            Column(name: "DUE", declaredType: "INTEGER", accepts: [.date], isNullable: true)
        ]
        table.indexes = [DatabaseDescription.Index(name: "by_due", columns: ["due"])]
        let plan = try Self.plan([Self.version2], [table])
        #expect(plan.isEmpty)
        #expect(plan.description == "-- the database matches the schema\n")
    }

    @Test("a required attribute without a default is refused, naming the column and what to do")
    func requiredWithoutDefault() throws {
        let entity = Entity(
            "Task", table: "task",
            attributes: [Attribute("title", .text), Attribute("done", .bool, default: false), Attribute("owner", .text)]
        )
        let plan = try Self.plan([entity], [Self.described])
        #expect(plan.steps.isEmpty)
        let refusal = try #require(plan.refusals.first)
        #expect(refusal.table == "task" && refusal.column == "owner")
        #expect(refusal.description.contains("give the attribute a default"))
        #expect(plan.description.contains("-- refused: table 'task', column 'owner': the column is missing"))
    }

    @Test("a changed type, a changed key and a tightened nullability are refused")
    func destructiveChanges() throws {
        let retyped = Entity(
            "Task", table: "task", attributes: [Attribute("title", .integer), Attribute("done", .bool, default: false)])
        let typePlan = try Self.plan([retyped], [Self.described])
        #expect(typePlan.refusals.map(\.column) == ["title"])
        #expect(typePlan.refusals[0].problem == "the column is TEXT, but Task.title is an integer (INTEGER)")
        #expect(typePlan.refusals[0].remedy.hasPrefix("FetchKit does not change a column's type"))

        let rekeyed = Entity(
            "Task", table: "task", primaryKey: .text("code"),
            attributes: [Attribute("title", .text), Attribute("done", .bool, default: false)])
        let keyPlan = try Self.plan([rekeyed], [Self.described])
        #expect(keyPlan.refusals.first?.problem.hasPrefix("the primary key is (id)") == true)

        var nullable = Self.described
        nullable.columns[1].isNullable = true
        let nullPlan = try Self.plan([Self.version1], [nullable])
        #expect(nullPlan.refusals.map(\.column) == ["title"])
        #expect(nullPlan.refusals[0].problem == "the column allows NULL, but Task.title is required")
    }

    @Test("a column the model dropped is left alone, unless inserts cannot leave it out")
    func undeclaredColumns() throws {
        var table = Self.described
        table.columns.append(Column(name: "legacy", declaredType: "TEXT", accepts: [.text], isNullable: true))
        let noted = try Self.plan([Self.version1], [table])
        #expect(noted.isEmpty && noted.notes.map(\.column) == ["legacy"])
        #expect(noted.description.contains("-- note: table 'task', column 'legacy'"))
        table.columns[3].isNullable = false
        let refused = try Self.plan([Self.version1], [table])
        #expect(refused.refusals.map(\.column) == ["legacy"])
        #expect(refused.refusals[0].problem.contains("inserts would fail"))
        table.columns[3].hasDefault = true
        #expect(try Self.plan([Self.version1], [table]).refusals.isEmpty)
    }

    @Test("identifiers are quoted, never interpolated raw, and defaults are literals")
    func hostileNames() throws {
        let entity = Entity(
            "Odd", table: #"odd"; DROP TABLE x; --"#,
            attributes: [Attribute("note", .text, default: "it's \"fine\"", column: #"a"b"#)])
        let plan = try Self.plan(
            [entity],
            [
                DatabaseDescription.Table(
                    name: #"odd"; DROP TABLE x; --"#,
                    columns: [Column(name: "id", declaredType: "INTEGER", accepts: [.integer], isNullable: false)],
                    primaryKey: ["id"])
            ])
        #expect(
            plan.sql == #"ALTER TABLE "odd""; DROP TABLE x; --" ADD COLUMN "a""b" TEXT NOT NULL "#
                + #"DEFAULT 'it''s "fine"';"# + "\n")
    }

    @Test("values render as each dialect's literals; those without one are refused")
    func literals() throws {
        let sqlite = TestDialects.question
        let postgres = TestDialects.dollar
        #expect(sqlite.literal(.bool(true), for: .bool) == "1")
        #expect(postgres.literal(.bool(false), for: .bool) == "FALSE")
        let date = Date(timeIntervalSince1970: 1_706_702_400.123456)
        #expect(sqlite.literal(.date(date), for: .date) == "1706702400123456")
        #expect(postgres.literal(.date(date), for: .date) == "'2024-01-31 12:00:00.123456+00'")
        #expect(
            postgres.literal(.date(Date(timeIntervalSince1970: -0.5)), for: .date) == "'1969-12-31 23:59:59.500000+00'")
        #expect(sqlite.literal(.blob(Data([0x0a, 0xff])), for: .binary) == "X'0aff'")
        #expect(postgres.literal(.blob(Data([0x0a, 0xff])), for: .binary) == #"'\x0aff'"#)
        #expect(postgres.literal(.double(1.5), for: .double) == "1.5")
        #expect(postgres.literal(.integer(2), for: .double) == "2.0")
        #expect(postgres.literal(.double(.infinity), for: .double) == nil)
        #expect(postgres.literal(.text("a\u{0}b"), for: .text) == nil)

        let entity = Entity(
            "Task", table: "task",
            attributes: [
                Attribute("title", .text), Attribute("done", .bool, default: false),
                Attribute("weight", .double, default: .double(.nan))
            ])
        let plan = try Self.plan([entity], [Self.described])
        #expect(plan.refusals.map(\.column) == ["weight"])
    }

    @Test("a plan with refusals is a schema mismatch that carries the plan")
    func refusalError() throws {
        let retyped = Entity(
            "Task", table: "task", attributes: [Attribute("title", .integer), Attribute("done", .bool, default: false)])
        let plan = try Self.plan([retyped], [Self.described])
        let error = try #require(plan.refusalError)
        #expect(error.code == .schemaMismatch && error.table == "task")
        #expect(error.suggestedSQL == plan.description)
        #expect(error.description.contains("to bring the database to the schema, run: -- refused: table 'task'"))
        #expect(!error.description.contains("\n"))
        #expect(try Self.plan([Self.version1], [Self.described]).refusalError == nil)
    }
}
