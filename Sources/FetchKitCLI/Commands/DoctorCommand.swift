import ArgumentParser
import FetchKit
import Foundation

/// `fetchkit doctor`: whether a database is ready for FetchKit, one line per check with what to do.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check whether a database is ready for FetchKit.",
        discussion: """
            Prints one line per check — ok, warning or failure, what it found and, when it is not ok, what to do — \
            and exits with status 1 when a check failed. On PostgreSQL: the connection, the server, what the \
            logical feed needs (wal_level, the role's right to replicate, a free slot and WAL sender), the right \
            to install the trigger feed's capture, and a pooler that would break LISTEN. On SQLite: the file and \
            its folder. It reads settings and catalogs and changes nothing.

              fetchkit doctor --store sqlite:///var/app.sqlite
              fetchkit doctor --store postgres://app@db/app
            """
    )

    @Option(help: "The database: sqlite:///path, or postgres://user@host/db.")
    var store: String

    func run() async throws {
        let checks = try await StoreRegistry.tool.diagnose(StoreConfiguration(url: store))
        for check in checks { print(TerminalText.safe(check.description)) }
        if checks.contains(where: { $0.status == .failure }) { throw ExitCode(1) }
    }
}
