import FetchKit
import FetchKitBackendKit
import FetchKitPostgres
import FetchKitSQLite
import Foundation

/// Bulk inserts, in one run against the server `DATABASE_URL` names (start one with
/// `eval "$(bash Integration/scripts/pg-start.sh)"`), into the same table with FetchKit's change-capture
/// triggers installed:
/// - psql's `\copy bench from FILE` of the rows (the file written by the server's own `COPY … TO`), psql's
///   process start and connection included; and of the rows without their keys, which the database assigns;
/// - `store.write { tx.insert(contentsOf: records) }` with the records' keys, and with keys the database
///   assigns (returned in the records, `BenchOptionalRecord`s whose `id` is `nil`);
/// - the loop of single `tx.insert` in one write, on `loopRows` rows, extrapolated to the full count;
/// - SQLite's `insert(contentsOf:)` into a file store, for reference.
/// Each side runs `iterations` times round-robin on an emptied table; medians are reported, with ratios
/// against psql's `\copy`.
enum BulkBenchmark {
    static func records(_ count: Int) -> [BenchRecord] {
        (1...Int64(count)).map { id in
            BenchRecord(
                id: id, name: id.isMultiple(of: 10) ? "row \(id)\twith\\escapes\n" : "row number \(id)",
                score: Double(id) * 0.37, count: id * 7, flag: id.isMultiple(of: 2),
                created: Date(microsecondsSince1970: 1_700_000_000_000_000 + id * 1_001))
        }
    }

    static func run(rows: Int, iterations: Int, loopRows: Int) async throws {
        guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
            print("bulk: DATABASE_URL is not set; run: eval \"$(bash Integration/scripts/pg-start.sh)\"")
            exit(2)
        }
        let psql = try psqlPath()
        let namespace = "fkbulk_\(ProcessInfo.processInfo.processIdentifier)"
        let raw = try RawConnection(text)
        try raw.exec(
            "DROP SCHEMA IF EXISTS \(namespace) CASCADE; CREATE SCHEMA \(namespace); SET search_path = \(namespace)")
        let urlText = text + (text.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(namespace)"
        let schema = try Schema([BenchRecord.entity])
        let store = try await PostgresStore.open(
            url: PostgresURL(urlText), schema: schema, options: .init(readerCount: 1))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-bulk-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bench.tsv").path
        let sqlite = try await SQLiteStore.open(
            path: directory.appendingPathComponent("bench.sqlite").path, schema: schema)

        let records = Self.records(rows)
        let keyless = records.map {
            BenchOptionalRecord(
                id: nil, name: $0.name, score: $0.score, count: $0.count, flag: $0.flag, created: $0.created)
        }
        // The file psql reads: the rows FetchKit writes, in the server's own text format.
        try await store.write { tx in _ = try tx.insert(contentsOf: records) }
        try shell("\(psql) -X -q -v ON_ERROR_STOP=1 '\(urlText)' -c \"\\copy bench to '\(file)'\"")
        let keylessFile = directory.appendingPathComponent("bench-keyless.tsv").path
        let columns = "name, score, count, flag, created"
        try shell(
            "\(psql) -X -q -v ON_ERROR_STOP=1 '\(urlText)' "
                + "-c \"\\copy (SELECT \(columns) FROM bench ORDER BY id) to '\(keylessFile)'\"")
        let copied = try await store.fetch(
            FetchRequest(BenchRecord.self, sortDescriptors: [.ascending("id")]), as: BenchRecord.self)
        precondition(copied.count == rows)

        let postgres = store as any PersistentStore
        let sides: [(name: String, store: any PersistentStore, rows: Int, body: () async throws -> Void)] = [
            (
                "psql \\copy from file", postgres, rows,
                {
                    try shell("\(psql) -X -q -v ON_ERROR_STOP=1 '\(urlText)' -c \"\\copy bench from '\(file)'\"")
                }
            ),
            (
                "FetchKit insert(contentsOf:), keys given", postgres, rows,
                {
                    try await store.write { tx in _ = try tx.insert(contentsOf: records) }
                }
            ),
            (
                "psql \\copy from file, keys assigned", postgres, rows,
                {
                    try shell(
                        "\(psql) -X -q -v ON_ERROR_STOP=1 '\(urlText)' -c \"\\copy bench (\(columns)) from "
                            + "'\(keylessFile)'\""
                    )
                }
            ),
            (
                "FetchKit insert(contentsOf:), keys assigned", postgres, rows,
                {
                    let inserted = try await store.write { tx in try tx.insert(contentsOf: keyless) }
                    precondition(inserted.count == rows && inserted.last?.id != nil)
                }
            ),
            (
                "FetchKit loop of insert, \(loopRows) rows", postgres, loopRows,
                {
                    try await store.write { tx in for record in records.prefix(loopRows) { try tx.insert(record) } }
                }
            ),
            (
                "SQLite insert(contentsOf:)", sqlite, rows,
                {
                    try await sqlite.write { tx in _ = try tx.insert(contentsOf: records) }
                }
            )
        ]
        var samples = Array(repeating: [Duration](), count: sides.count)
        for round in 0..<(iterations + 1) {
            for (index, side) in sides.enumerated() {
                if side.store === postgres {
                    try raw.exec("TRUNCATE bench")
                } else {
                    try await sqlite.write { tx in _ = try tx.delete("Bench", where: .constant(true)) }
                }
                let start = ContinuousClock.now
                try await side.body()
                if round > 0 { samples[index].append(ContinuousClock.now - start) }
                let count = try await side.store.count(FetchRequest(entity: "Bench"))
                precondition(count == side.rows, "\(side.name) left \(count) rows, not \(side.rows)")
            }
        }

        print(
            "bulk: \(rows) rows of (id, name, score, count, flag, created), PostgreSQL over loopback with change "
                + "capture, "
                + "release build, \(iterations) runs each (median; first round discarded)")
        let psqlMedian = PostgresBenchmark.median(samples[0])
        for (index, side) in sides.enumerated() {
            let median = PostgresBenchmark.median(samples[index])
            var line =
                side.name.padding(toLength: 46, withPad: " ", startingAt: 0)
                + String(format: " %9.1f ms", PostgresBenchmark.ms(median))
            if index == 4 {
                let extrapolated = PostgresBenchmark.ms(median) * Double(rows) / Double(loopRows)
                line += String(
                    format: "  -> %.0f ms for %d rows extrapolated, %.1fx psql", extrapolated, rows,
                    extrapolated / PostgresBenchmark.ms(psqlMedian))
            } else if index == 3 {
                let keyless = PostgresBenchmark.median(samples[2])
                line += String(
                    format: "  %.2fx psql with keys assigned",
                    PostgresBenchmark.ms(median) / PostgresBenchmark.ms(keyless))
            } else if index > 0 {
                line += String(format: "  %.2fx psql", PostgresBenchmark.ms(median) / PostgresBenchmark.ms(psqlMedian))
            }
            print(line)
        }
        // Where FetchKit's time goes before the server sees a byte: encoding the records and checking their
        // values into one batch.
        let compiler = SQLCompiler(schema: schema, dialect: store.dialect)
        var compileTimes: [Duration] = []
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            let batch = try compiler.insert(contentsOf: records)
            compileTimes.append(ContinuousClock.now - start)
            precondition(batch.rowCount == rows)
        }
        print(
            String(
                format: "  of which records encoded and checked (no database): %.1f ms",
                PostgresBenchmark.ms(PostgresBenchmark.median(compileTimes))))
        await sqlite.close()
        await store.close()
        try raw.exec("DROP SCHEMA \(namespace) CASCADE")
    }

    /// psql: in `PGBIN` (pg-start.sh exports it), else on `PATH`.
    static func psqlPath() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["PGBIN"],
            FileManager.default.isExecutableFile(atPath: bin + "/psql")
        {
            return bin + "/psql"
        }
        return "psql"
    }

    /// Runs `command` with `/bin/sh`, failing on a non-zero exit.
    static func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "bulk: \(command) exited with \(process.terminationStatus)", code: 4)
        }
    }
}
