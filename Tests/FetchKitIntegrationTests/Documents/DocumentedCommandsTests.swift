import ArgumentParser
import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitCLI

/// Every `fetchkit …` line that README.md, CONTRIBUTING.md, the DocC articles and the subcommands' `--help` show
/// parses as written, and runs: `demo` and `query` to the end (with the output the document shows after it, if
/// any), `watch` against a throwaway SQLite store (its `--store` replaced, every other argument as written)
/// until it prints the results, then Ctrl-C. `capture-sql` needs PostgreSQL tables: it is parsed only.
@Suite("The documented fetchkit command lines")
struct DocumentedCommandsTests {
    /// The lines of the documents and of the subcommands' help, each once (the first place it is shown).
    static let commands = documentedAndHelpCommands()

    /// The subcommands' names.
    static let subcommands = subcommandNames()

    // (Functions, not the static lets' initializers: opening `any ParsableCommand.Type` in an initializer
    // crashes the Swift 6.3 compiler while it emits the module.)
    private static func documentedAndHelpCommands() -> [DocumentedCommand] {
        let documented = (try? DocumentedCommands.all()) ?? []
        var help: [DocumentedCommand] = []
        for subcommand in FetchKitCommand.configuration.subcommands {
            let configuration = subcommand.configuration
            for line in configuration.discussion.components(separatedBy: "\n") {
                let source = "fetchkit \(configuration.commandName ?? "") --help"
                if let command = try? DocumentedCommands.command(
                    line.trimmingCharacters(in: .whitespaces), source: source)
                {
                    help.append(command)
                }
            }
        }
        var seen = Set<[String]>()
        return (documented + help).filter { seen.insert($0.arguments + ["→"] + $0.expectedOutput).inserted }
    }

    private static func subcommandNames() -> [String] {
        var names: [String] = []
        for subcommand in FetchKitCommand.configuration.subcommands {
            if let name = subcommand.configuration.commandName { names.append(name) }
        }
        return names
    }

    @Test func theDocumentsShowEverySubcommand() throws {
        let documented = try DocumentedCommands.all()
        for name in Self.subcommands {
            #expect(documented.contains { $0.subcommand == name && $0.arguments.count > 1 }, "no \(name) line")
        }
        #expect(documented.contains { !$0.expectedOutput.isEmpty }, "no line with its output")
        #expect(Self.commands.contains { $0.source.hasSuffix("--help") }, "no line from --help")
    }

    @Test(arguments: commands)
    func parsesAndRuns(_ command: DocumentedCommand) async throws {
        // `fetchkit demo <name>` and a bare `fetchkit watch` in prose name a subcommand.
        if command.isSynopsis || command.arguments.count == 1 {
            #expect(
                command.arguments.count == 1 && Self.subcommands.contains(command.arguments[0]),
                "\(command) names no subcommand")
            if command.isSynopsis { return }
        }
        let parsed: any ParsableCommand
        do {
            parsed = try FetchKitCommand.parseAsRoot(command.arguments)
        } catch {
            // A bare subcommand name whose options are required (`fetchkit watch`) is a name, not a line to run.
            if command.arguments.count == 1 { return }
            Issue.record("\(command) does not parse: \(FetchKitCommand.message(for: error))")
            return
        }
        switch parsed {
        case is DemoCommand, is QueryCommand:
            try await runToTheEnd(command)
        case is WatchCommand:
            try await watch(command)
        case is ExplainCommand:
            try await explain(command)
        case is SchemaApplyCommand:
            try await applySchema(command)
        case is CaptureSQLCommand, is SlotsCommand, is SchemaPlanCommand, is CaptureInstallCommand,
            is CaptureUninstallCommand, is DoctorCommand:
            break  // reads a PostgreSQL database (on SQLite: SchemaCommandTests, DoctorCommandTests)
        case is ImportCommand:
            break  // reads a file the document only names (ImportCommandTests)
        case is SchemaCommand, is CaptureCommand:
            // A group of subcommands, named in prose: `fetchkit schema` (`plan`, `apply`).
            #expect(command.arguments.count == 1, "\(command) runs a group")
        default:
            Issue.record("\(command): no way to run \(type(of: parsed))")
        }
    }

    /// Runs the line to its end: it succeeds, or prints the output the document shows after it.
    private func runToTheEnd(_ command: DocumentedCommand) async throws {
        let (status, output) = try await FetchKitBinary.run(command.arguments)
        if command.expectedOutput.contains(where: { $0.hasPrefix("Error") }) {
            #expect(status != 0, "\(command) succeeded: \(output)")
        } else {
            #expect(status == 0, "\(command) failed: \(output)")
        }
        for line in command.expectedOutput {
            #expect(output.contains(line), "\(command) did not print \(line.debugDescription): \(output)")
        }
    }

    /// `command`'s arguments with its store replaced by a SQLite file in `directory` holding the fixtures' tables
    /// (and pgbench's accounts table).
    private func onThrowawayStore(_ command: DocumentedCommand, in directory: TemporaryDirectory) async throws
        -> [String]
    {
        let file = directory.path("documented.sqlite")
        let schema = try Schema([Fixtures.category, Fixtures.todo, Fixtures.note, Self.pgbenchAccounts])
        let store = try await SQLiteStore.open(
            path: file, schema: schema, options: .testing())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        await store.close()
        var arguments = command.arguments
        if let index = arguments.firstIndex(of: "--store"), index + 1 < arguments.count {
            arguments[index + 1] = "sqlite://\(file)"
        } else if let index = arguments.firstIndex(where: { $0.hasPrefix("--store=") }) {
            arguments[index] = "--store=sqlite://\(file)"
        }
        return arguments
    }

    /// Runs an `explain` line on a throwaway SQLite store: it succeeds and prints the lines the document shows
    /// after it (the SQL of the line's own query).
    private func explain(_ command: DocumentedCommand) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let arguments = try await onThrowawayStore(command, in: directory)
        let (status, output) = try await FetchKitBinary.run(arguments)
        #expect(status == 0, "\(command) on SQLite failed: \(output)")
        for line in command.expectedOutput {
            #expect(output.contains(line), "\(command) did not print \(line.debugDescription): \(output)")
        }
    }

    /// Runs a `schema apply` line on a new SQLite file: it succeeds and prints what the document shows after it.
    private func applySchema(_ command: DocumentedCommand) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var arguments = command.arguments
        let index = try #require(arguments.firstIndex(of: "--store"), "\(command) names no --store")
        arguments[index + 1] = "sqlite://\(directory.path("new.sqlite"))"
        let (status, output) = try await FetchKitBinary.run(arguments)
        #expect(status == 0, "\(command) on a new SQLite file failed: \(output)")
        for line in command.expectedOutput {
            #expect(output.contains(line), "\(command) did not print \(line.debugDescription): \(output)")
        }
    }

    /// Runs the line on a throwaway SQLite store until it prints the results, then interrupts it as Ctrl-C does.
    private func watch(_ command: DocumentedCommand) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let arguments = try await onThrowawayStore(command, in: directory)
        let watch = try ChildProcess(try FetchKitBinary.url, arguments)
        // The change feed's line (standard error, merged here) comes first, then the results.
        let feed = try await watch.line(0)
        #expect(feed.hasPrefix("change feed: ") || feed.hasPrefix("Error"), "\(command) on SQLite: \(feed)")
        let first = feed.hasPrefix("Error") ? feed : try await watch.line(1)
        #expect(!first.hasPrefix("Error"), "\(command) on SQLite: \(first)")
        if arguments.contains("--json") {
            #expect(first.hasPrefix(#"{"type":"results""#), "\(command) on SQLite: \(first)")
        }
        watch.interrupt()
        let status = try await watch.exit()
        #expect(status == 0, "\(command) on SQLite ended with \(status)")
    }

    /// pgbench's accounts table, as `fetchkit watch --entity pgbench_accounts` reads it.
    static let pgbenchAccounts = Entity(
        "pgbench_accounts", table: "pgbench_accounts", primaryKey: .integer("aid"),
        attributes: [Attribute("bid", .integer), Attribute("abalance", .integer), Attribute("filler", .text)])
}
