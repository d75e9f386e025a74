import ArgumentParser
import FetchKit
import FetchKitBackendKit
import FetchKitFixtures
import FetchKitSQLite
import Foundation

#if Postgres
    import FetchKitPostgres
#endif

/// `fetchkit schema plan|apply`: the DDL that brings a database to the demo schema, printed or run.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Plan, or apply, the changes that bring a database to a schema.",
        subcommands: [SchemaPlanCommand.self, SchemaApplyCommand.self]
    )
}

/// `fetchkit schema plan --store URL`.
struct SchemaPlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the SQL that brings a database to the demo schema (todos, categories, notes).",
        discussion: """
            Reads the database's tables and prints, one statement per line, what creates the missing tables, \
            adds the missing columns and creates the missing indexes. Nothing is changed. Changes FetchKit does \
            not make for you (a column whose type changed, a changed primary key, a column that became required, \
            a column the schema no longer declares that inserts cannot leave out) are printed as comments \
            (-- refused: …) and the command exits with status 1.

              fetchkit schema plan --store sqlite:///var/app.sqlite
              fetchkit schema plan --store postgres://admin@db/app > migration.sql
            """
    )

    @Option(help: "The database: sqlite:///path, or postgres://user@host/db (its search_path picks the schema).")
    var store: String

    func run() async throws {
        let plan = try await StoreRegistry.tool.plan(Fixtures.schema, in: StoreConfiguration(url: store))
        print(TerminalText.safeLines(plan.description), terminator: "")
        guard plan.refusals.isEmpty else {
            let count = plan.refusals.count
            FileHandle.standardError.write(
                Data("error: \(count) change\(count == 1 ? " is" : "s are") refused; see the comments above\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// `fetchkit schema apply --store URL`: runs the plan, with its progress on a terminal.
struct SchemaApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Bring a database to the demo schema (todos, categories, notes): run what `schema plan` prints.",
        discussion: """
            Opens the database as a store with the evolve schema policy: in one transaction, creates the missing \
            tables, adds the missing columns and creates the missing indexes, then checks every table. On a \
            terminal, standard error shows which statement runs. A refused change (see `schema plan`) applies \
            nothing and exits with status 1. No change capture is installed.

              fetchkit schema apply --store sqlite:///var/app.sqlite
              fetchkit schema apply --store postgres://admin@db/app
            """
    )

    @Option(help: "The database: sqlite:///path, or postgres://user@host/db (its search_path picks the schema).")
    var store: String

    func run() async throws {
        let schema = Fixtures.schema
        let plan = try await StoreRegistry.tool.plan(schema, in: StoreConfiguration(url: store))
        guard plan.refusals.isEmpty else {
            print(TerminalText.safeLines(plan.description), terminator: "")
            let count = plan.refusals.count
            FileHandle.standardError.write(
                Data("error: \(count) change\(count == 1 ? " is" : "s are") refused; nothing was applied\n".utf8))
            throw ExitCode.failure
        }
        guard !plan.steps.isEmpty else {
            print("The database already has the schema: nothing to apply.")
            return
        }
        let line = ProgressLine()
        let progress = SchemaProgress { done, total, step in
            let statement = step.map { ": " + $0.sql.prefix(80) } ?? ""
            line.update("applying \(min(done + 1, total)) of \(total)\(statement)", always: true)
        }
        let database = try await SchemaProgress.$current.withValue(progress) {
            try await Self.openEvolving(store, schema: schema)
        }
        await database.close()
        line.finish()
        print("Applied \(plan.steps.count) statement\(plan.steps.count == 1 ? "" : "s").")
    }

    /// Opens the database at `url` with the evolve policy, and without change capture.
    static func openEvolving(_ url: String, schema: Schema) async throws -> any PersistentStore {
        let configuration = StoreConfiguration(url: url)
        if url.lowercased().hasPrefix("sqlite:") {
            var options = try SQLiteStore.Options(configuration: configuration)
            options.schemaPolicy = .evolve
            options.readerCount = 0
            guard let path = try SQLiteStore.path(of: configuration) else {
                throw ValidationError("schema apply needs a database file, not sqlite::memory:")
            }
            return try await SQLiteStore.open(path: path, schema: schema, options: options)
        }
        #if Postgres
            var options = try PostgresStore.Options(configuration: configuration)
            options.schemaPolicy = .evolve
            options.changeCapture = false
            options.readerCount = 1
            return try await PostgresStore.open(url: url, schema: schema, options: options)
        #else
            throw PostgresNotBuiltIn(needed: "fetchkit schema apply on \(configuration.redactedURL)")
        #endif
    }
}
