import ArgumentParser
import FetchKit
import FetchKitSQLite
import Foundation

/// `fetchkit watch`: a live query on an existing SQLite or PostgreSQL database, printed as it changes.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a live query on an existing SQLite or PostgreSQL database.",
        discussion: """
            Reads the table's columns and primary key from the database, prints the current results as a \
            table, then every batch as it happens: what it changed and the rows it inserted or changed (the \
            whole table again with --full; one JSON object per line with --json). Which change feed the store \
            reads, and why, goes to standard error first. Ctrl-C exits. On \
            PostgreSQL the store installs FetchKit's change-capture triggers on the table, and removes them when \
            it exits unless the table had them before (--keep-capture keeps them), or reads the \
            write-ahead log with --feed logical (--feed auto: the log where the server allows it). The \
            backends' other keys come from the environment (FETCHKIT_POSTGRES_…).

              fetchkit watch --store sqlite:///var/app.sqlite --entity todo --where 'done == 0' --sort title
              fetchkit watch --store postgres://app@db/app --entity todo --sort -priority,title --limit 10 --json
            """
    )

    @OptionGroup var query: TableQuery

    @Flag(help: "One JSON object per line: the results first, then each batch as a wire changeset.")
    var json = false

    @Flag(help: "Reprint the whole table after each batch (by default only the rows a batch inserts or changes).")
    var full = false

    @Flag(help: "Keep the change-capture triggers watch installs on a PostgreSQL table when it exits.")
    var keepCapture = false

    @Option(
        help: "PostgreSQL's change feed: triggers, logical or auto (default: FETCHKIT_POSTGRES_CHANGE_FEED or triggers)"
    )
    var feed: String?

    func run() async throws {
        #if Configuration
            var configuration = StoreConfiguration(url: query.store)
            var environment = ProcessInfo.processInfo.environment
            if let feed { environment["FETCHKIT_POSTGRES_CHANGE_FEED"] = feed }
            configuration.reader = try await StoreConfiguration.reader(environment: environment)
        #else
            // Built without the Configuration trait: no environment is read, so nothing can choose the feed.
            let configuration = StoreConfiguration(url: query.store)
            if feed != nil { throw ValidationError("--feed needs FetchKit built with its Configuration trait") }
        #endif
        let registry = StoreRegistry.tool
        let described = try await registry.describeTable(query.entity, in: configuration)
        let capture = try await WatchCapture.before(table: described.table, store: query.store)
        let database = try await registry.open(configuration, schema: try Schema([described]))
        // On standard error: standard output stays the results (a table, or JSON lines).
        let feedLine = TerminalText.safe(StoreRegistry.feedDescription(of: database)) + "\n"
        FileHandle.standardError.write(Data(feedLine.utf8))
        let request = try query.request(on: described)
        let controller = ResultsController(store: database, request: request)
        let output = WatchOutput(json: json, colour: !json && isatty(STDOUT_FILENO) == 1, full: full)
        let interrupted = Interrupts.start()
        let watching = Task { () -> FetchKitError? in
            do throws(FetchKitError) {
                for try await update in controller.updates() {
                    output.print(update, request: request, store: configuration.redactedURL)
                }
                return nil
            } catch {
                return error
            }
        }
        do {
            try await controller.performFetch()
        } catch {
            watching.cancel()
            await database.close()
            if !keepCapture { _ = try? await capture.cleanUp() }
            throw error
        }
        // Until Ctrl-C, or until the controller stops following the database (a permanent failure).
        let failure = await withTaskGroup(of: FetchKitError?.self) { group in
            group.addTask {
                await interrupted.value
                return nil
            }
            group.addTask { await watching.value }
            let first = await group.next() ?? nil
            interrupted.cancel()
            watching.cancel()
            return first
        }
        await database.close()
        if !keepCapture, let removed = try await capture.cleanUp() {
            FileHandle.standardError.write(Data((TerminalText.safe(removed) + "\n").utf8))
        }
        if let failure { throw failure }
    }
}

/// How `fetchkit watch` prints the results and each batch.
struct WatchOutput: Sendable {
    let json: Bool
    let colour: Bool
    /// Whether each batch reprints the whole table, rather than the rows it inserted or changed.
    var full = false

    func print(_ update: ResultsBatch<Row>, request: FetchRequest<Row>, store: String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let kind = update.changeset == nil ? "results" : "batch"
            let body =
                (try? encoder.encode(WireChangeset(update))).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            emit(TerminalText.safeJSON(#"{"type":"\#(kind)","changeset":\#(body)}"#))
            return
        }
        if let changeset = update.changeset {
            emit(
                paint(
                    "── batch\(update.transactionID.map { " of transaction \($0)" } ?? ""): "
                        + "\(changeset.sectionCountsBefore) → \(changeset.sectionCountsAfter) rows per section",
                    code: "1;33"))
            for index in changeset.sectionDeletes { emit(paint("   − section \(index)", code: "31")) }
            for index in changeset.sectionInserts {
                emit(
                    paint(
                        "   + section \(index) '\(TerminalText.safe(update.snapshot.sections[index].name))'", code: "32"
                    ))
            }
            for path in changeset.rowDeletes { emit(paint("   − row \(path)", code: "31")) }
            for path in changeset.rowInserts { emit(paint("   + row \(path)", code: "32")) }
            for move in changeset.rowMoves {
                emit(paint("   ↕ row \(move.from) → \(move.to)\(move.isUpdated ? " (changed)" : "")", code: "36"))
            }
            for row in changeset.rowUpdates { emit(paint("   ~ row \(row.from) → \(row.to)", code: "35")) }
            if !full {
                // The rows as they are now, of those the batch inserted, changed or moved while changing.
                let paths =
                    changeset.rowInserts + changeset.rowUpdates.map(\.to)
                    + changeset.rowMoves.filter(\.isUpdated).map(\.to)
                let rows = paths.sorted().map { path in
                    let objects = update.snapshot.sections[path.section].objects
                    return objects[objects.index(objects.startIndex, offsetBy: path.row)]
                }
                if !rows.isEmpty { emit(TableRenderer().render(rows), terminator: "") }
                return
            }
        } else {
            emit(
                paint(
                    TerminalText.safe("watching \(request.entityName) where \(request.predicate) on \(store)")
                        + " — Ctrl-C to stop", code: "1"))
        }
        for section in update.snapshot.sections {
            if request.sectionNameKeyPath != nil {
                emit(paint("▸ \(section.name.isEmpty ? "(none)" : TerminalText.safe(section.name))", code: "1"))
            }
            emit(TableRenderer().render(Array(section.objects)), terminator: "")
        }
    }

    private func paint(_ text: String, code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    private func emit(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }
}
