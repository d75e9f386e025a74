import ArgumentParser

/// The `fetchkit` command-line tool.
@main
struct FetchKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetchkit",
        abstract: "Live fetch requests over SQLite and PostgreSQL.",
        subcommands: [
            DemoCommand.self, QueryCommand.self, WatchCommand.self, CaptureSQLCommand.self, SlotsCommand.self
        ],
        defaultSubcommand: DemoCommand.self
    )
}
