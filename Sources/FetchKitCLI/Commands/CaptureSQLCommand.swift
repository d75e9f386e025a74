import ArgumentParser
import FetchKit
import FetchKitPostgres

/// `fetchkit capture-sql`: the SQL that installs FetchKit's change capture on existing PostgreSQL tables,
/// for a DBA to run as a migration.
struct CaptureSQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture-sql",
        abstract: "Print the SQL that installs FetchKit's change capture on PostgreSQL tables.",
        discussion: """
            Reads each table's primary key from the database and prints one transaction that creates \
            FetchKit's trigger function (schema "fetchkit") and the tables' change-capture triggers. Run it \
            once with a role that may (CREATE on the database, ownership of the tables); the app's role then \
            needs only SELECT, INSERT, UPDATE and DELETE on its tables.

              fetchkit capture-sql --store postgres://admin@db/app --entity todo --entity category > capture.sql
            """
    )

    @Option(help: "The PostgreSQL database: postgres://user@host/db (its search_path picks the schema).")
    var store: String

    @Option(help: "A table to capture (repeat for several).")
    var entity: [String]

    @Option(help: "The LISTEN channel, as the app's store options name it.")
    var channel = "fetchkit"

    @Option(help: "Above this many rows a statement notifies a table-level hint, as the app's store options say.")
    var rowLimit = 1_000

    func validate() throws {
        guard !entity.isEmpty else { throw ValidationError("name at least one table with --entity") }
        guard rowLimit > 0 else { throw ValidationError("--row-limit must be positive") }
    }

    func run() async throws {
        let url = try PostgresURL(store)
        let options = PostgresStore.Options(channel: channel, notificationRowLimit: rowLimit)
        print(try await PostgresStore.changeCaptureSQL(forTables: entity, url: url, options: options), terminator: "")
    }
}
