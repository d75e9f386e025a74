import ArgumentParser
import FetchKit
import Foundation

/// `fetchkit import`: rows from a JSON Lines file into an existing table, in one transaction.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Insert the rows of a JSON Lines file into an existing SQLite or PostgreSQL table.",
        discussion: """
            Each line of the file (- reads standard input) is one JSON object: the row, by column name. Values \\
            are converted to the table's column types (integers, doubles, text, booleans, dates as ISO 8601 \\
            text or seconds since 1970, binary as base64); blank lines are skipped. Every row goes in one \\
            transaction: a line that does not parse or fit, or a row the database refuses (a duplicate key), \\
            inserts nothing, and the error names its line. On a terminal, standard error shows the progress. \\
            Live controllers of the table (an app's, `fetchkit watch`) receive the import as one change.

              fetchkit import --store sqlite:///var/app.sqlite --entity todo todos.jsonl
              gunzip -c todos.jsonl.gz | fetchkit import --store postgres://app@db/app --entity todo -
            """
    )

    @Option(help: "The database: sqlite:///path, or postgres://user@host/db.")
    var store: String

    @Option(help: "The table.")
    var entity: String

    @Argument(help: "The JSON Lines file, or - for standard input.")
    var file: String

    func run() async throws {
        let data =
            if file == "-" {
                FileHandle.standardInput.readDataToEndOfFile()
            } else {
                try Data(contentsOf: URL(fileURLWithPath: file))
            }
        let configuration = StoreConfiguration(url: store)
        let registry = StoreRegistry.tool
        let table = try await registry.describeTable(entity, in: configuration)
        let progress = ProgressLine()
        let rows = try JSONLinesImport(table: table).rows(in: data) { read in
            progress.update("read \(read.formatted()) lines")
        }
        let database = try await registry.open(configuration, schema: try Schema([table]))
        let total = rows.count
        do {
            try await database.write { tx in
                for (index, (line, row)) in rows.enumerated() {
                    do {
                        _ = try tx.insert(row, into: table.name)
                    } catch {
                        throw ImportFailure(line: line, reason: "\(error)")
                    }
                    if index % 1_000 == 999 {
                        progress.update("imported \((index + 1).formatted()) of \(total.formatted()) rows")
                    }
                }
                progress.update("imported \(total.formatted()) of \(total.formatted()) rows", always: true)
            }
        } catch {
            progress.finish()
            await database.close()
            throw error
        }
        progress.finish()
        await database.close()
        print("Imported \(total) row\(total == 1 ? "" : "s") into \(TerminalText.safe(table.table)).")
    }
}

/// A line of the imported file that could not go in: nothing was imported.
struct ImportFailure: Error, CustomStringConvertible {
    let line: Int
    let reason: String

    var description: String { "line \(line): \(reason); nothing was imported" }
}
