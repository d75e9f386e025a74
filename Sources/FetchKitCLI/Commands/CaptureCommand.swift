import ArgumentParser
import FetchKit

#if Postgres
    import FetchKitPostgres
#endif

/// `fetchkit capture install|uninstall`: installs or removes FetchKit's change-capture triggers on PostgreSQL
/// tables (or prints the SQL, for a migration).
struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Install or remove FetchKit's change capture on PostgreSQL tables.",
        subcommands: [CaptureInstallCommand.self, CaptureUninstallCommand.self]
    )

    /// The options both subcommands take.
    struct Target: ParsableArguments {
        @Option(help: "The database: postgres://user@host/db (its search_path picks the schema).")
        var store: String

        @Option(help: "A table (repeat for several).")
        var entity: [String]

        @Flag(help: "Print the SQL instead of running it.")
        var print = false

        func validate() throws {
            guard !entity.isEmpty else { throw ValidationError("name at least one table with --entity") }
        }

        /// Whether the store is a SQLite one, which needs nothing installed (it reads its own writes): says so.
        func needsNothing() -> Bool {
            guard store.lowercased().hasPrefix("sqlite:") else { return false }
            Swift.print("SQLite stores need no change capture installed: nothing to do.")
            return true
        }

        #if Postgres
            /// Runs (or prints, with `--print`) the script `make` returns for the store's URL, then says `done`
            /// and how many tables.
            func perform(done: String, _ make: (PostgresURL) async throws -> String) async throws {
                let url = try PostgresURL(store)
                let script = try await make(url)
                if print {
                    Swift.print(script, terminator: "")
                    return
                }
                try await PostgresStore.runCaptureScript(script, url: url)
                Swift.print("\(done) \(entity.count) table\(entity.count == 1 ? "" : "s")")
            }
        #endif
    }
}

/// `fetchkit capture install --store URL --entity TABLE…`.
struct CaptureInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install the change-capture triggers on PostgreSQL tables (the SQL of capture-sql, run).",
        discussion: """
            Runs, in one transaction, what `fetchkit capture-sql` prints: FetchKit's trigger function (schema \
            "fetchkit") and each table's triggers. Needs CREATE on the database and ownership of the tables. \
            SQLite stores need nothing installed.

              fetchkit capture install --store postgres://admin@db/app --entity todo --entity category
              fetchkit capture install --store postgres://admin@db/app --entity todo --print > up.sql
            """
    )

    @OptionGroup var target: CaptureCommand.Target

    @Option(help: "The LISTEN channel, as the app's store options name it.")
    var channel = "fetchkit"

    @Option(help: "Above this many rows a statement notifies a table-level hint, as the app's store options say.")
    var rowLimit = CaptureDefaults.notificationRowLimit

    func validate() throws {
        guard rowLimit > 0 else { throw ValidationError("--row-limit must be positive") }
    }

    func run() async throws {
        guard !target.needsNothing() else { return }
        #if Postgres
            try await target.perform(done: "installed change capture on") { url in
                try await PostgresStore.changeCaptureSQL(
                    forTables: target.entity, url: url,
                    options: PostgresStore.Options(channel: channel, notificationRowLimit: rowLimit))
            }
        #else
            throw PostgresNotBuiltIn(needed: "fetchkit capture install")
        #endif
    }
}

/// `fetchkit capture uninstall --store URL --entity TABLE…`.
struct CaptureUninstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove the change-capture triggers from PostgreSQL tables, and FetchKit's trigger function.",
        discussion: """
            Drops, in one transaction, each table's FetchKit triggers and the "fetchkit" schema with its trigger \
            function (which every FetchKit store of the database shares: run it when none reads the trigger feed \
            any more).

              fetchkit capture uninstall --store postgres://admin@db/app --entity todo --entity category
              fetchkit capture uninstall --store postgres://admin@db/app --entity todo --print > down.sql
            """
    )

    @OptionGroup var target: CaptureCommand.Target

    func run() async throws {
        guard !target.needsNothing() else { return }
        #if Postgres
            try await target.perform(done: "removed change capture from") { url in
                try await PostgresStore.removeChangeCaptureSQL(forTables: target.entity, url: url)
            }
        #else
            throw PostgresNotBuiltIn(needed: "fetchkit capture uninstall")
        #endif
    }
}
