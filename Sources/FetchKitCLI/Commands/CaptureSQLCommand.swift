import ArgumentParser
import FetchKit

#if Postgres
    import FetchKitPostgres
#endif

/// `fetchkit capture-sql`: the SQL that installs FetchKit's change capture on existing PostgreSQL tables,
/// for a DBA to run as a migration.
struct CaptureSQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture-sql",
        abstract: "Print the SQL that installs FetchKit's change capture on PostgreSQL tables.",
        discussion: """
            For the trigger feed (the default), reads each table's primary key from the database and prints one \
            transaction that creates FetchKit's trigger function (schema "fetchkit") and the tables' \
            change-capture triggers. Run it once with a role that may (CREATE on the database, ownership of the \
            tables); the app's role then needs only SELECT, INSERT, UPDATE and DELETE on its tables.

            For the logical feed (--feed logical), prints the publication the store streams and the REPLICATION \
            attribute for the app's role (--role, default the URL's user), with the server settings it needs.

              fetchkit capture-sql --store postgres://admin@db/app --entity todo --entity category > capture.sql
              fetchkit capture-sql --store postgres://admin@db/app --entity todo --feed logical --role app
            """
    )

    @Option(help: "The PostgreSQL database: postgres://user@host/db (its search_path picks the schema).")
    var store: String

    @Option(help: "A table to capture (repeat for several).")
    var entity: [String]

    @Option(help: "The LISTEN channel, as the app's store options name it.")
    var channel = "fetchkit"

    @Option(help: "Above this many rows a statement notifies a table-level hint, as the app's store options say.")
    var rowLimit = CaptureDefaults.notificationRowLimit

    @Option(help: "The change feed the app reads: triggers or logical.")
    var feed = "triggers"

    @Option(help: "The logical feed: the app's role, to be given REPLICATION (default: the URL's user).")
    var role: String?

    @Option(help: "The logical feed: the publication's name, as the app's store options set it (default: the store's).")
    var publication: String?

    func validate() throws {
        guard !entity.isEmpty else { throw ValidationError("name at least one table with --entity") }
        guard rowLimit > 0 else { throw ValidationError("--row-limit must be positive") }
        guard ["triggers", "logical"].contains(feed) else { throw ValidationError("--feed is triggers or logical") }
    }

    func run() async throws {
        #if Postgres
            let url = try PostgresURL(store)
            if feed == "logical" {
                guard let role = role ?? url.parameters.last(where: { $0.keyword == "user" })?.value else {
                    throw ValidationError("name the app's role with --role")
                }
                print(
                    try await PostgresStore.logicalFeedSQL(
                        forTables: entity, url: url, role: role, publication: publication), terminator: "")
                return
            }
            let options = PostgresStore.Options(channel: channel, notificationRowLimit: rowLimit)
            print(
                try await PostgresStore.changeCaptureSQL(forTables: entity, url: url, options: options), terminator: "")
        #else
            throw PostgresNotBuiltIn(needed: "fetchkit capture-sql")
        #endif
    }
}
