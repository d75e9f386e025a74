import ArgumentParser
import FetchKit
import FetchKitFixtures
import Foundation

/// `fetchkit schema plan`: the DDL that brings a database to the demo schema.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Plan the changes that bring a database to a schema.",
        subcommands: [SchemaPlanCommand.self]
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
