import ArgumentParser
import FetchKit
import Foundation

/// The `fetchkit` command-line tool.
@main
struct FetchKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetchkit",
        abstract: "Live fetch requests over SQLite and PostgreSQL.",
        subcommands: [
            DemoCommand.self, QueryCommand.self, WatchCommand.self, CaptureSQLCommand.self, SlotsCommand.self,
            SchemaCommand.self, CaptureCommand.self, ExplainCommand.self, DoctorCommand.self, ImportCommand.self
        ],
        defaultSubcommand: DemoCommand.self
    )

    /// Runs the command the arguments name, as ArgumentParser does, except that an error's message reaches
    /// the terminal with its control and bidirectional characters escaped: a database's identifiers and values
    /// (and the arguments echoed back) are never written raw. Log lines go to standard error (``ToolLogging``).
    static func main() async {
        do {
            try ToolLogging.bootstrap()
            var command = try await asyncParseAsRoot(nil)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitSafely(withError: error)
        }
    }

    /// Exits as ``exit(withError:)`` does, the message escaped (help and other clean exits print as they are).
    static func exitSafely(withError error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let text = TerminalText.safeLines(error is FetchKitError ? "Error: \(error)" : fullMessage(for: error))
        if !text.isEmpty { FileHandle.standardError.write(Data((text + "\n").utf8)) }
        Foundation.exit(code.rawValue)
    }
}
