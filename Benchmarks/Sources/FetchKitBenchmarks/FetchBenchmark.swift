import CSQLiteBench
import FetchKit
import FetchKitSQLite
import Foundation

/// The six-column record the fetch benchmark reads.
struct BenchRecord: Record {
    static let entity = Entity(
        "Bench", table: "bench", primaryKey: .integer("id"),
        attributes: [
            Attribute("name", .text),
            Attribute("score", .double),
            Attribute("count", .integer),
            Attribute("flag", .bool),
            Attribute("created", .date)
        ])
    var id: Int64
    var name: String
    var score: Double
    var count: Int64
    var flag: Bool
    var created: Date
}

/// The same six columns, read by a `RowDecodable` record.
struct BenchRowRecord: RowDecodable {
    static let entity = BenchRecord.entity
    var id: Int64
    var name: String
    var score: Double
    var count: Int64
    var flag: Bool
    var created: Date

    init(row: borrowing RecordRow) throws {
        id = try row["id"]
        name = try row["name"]
        score = try row["score"]
        count = try row["count"]
        flag = try row["flag"]
        created = try row["created"]
    }
}

/// The same six columns as optionals, for profiling the optional paths (`profile optionals`).
struct BenchOptionalRecord: Record {
    static let entity = BenchRecord.entity
    var id: Int64?
    var name: String?
    var score: Double?
    var count: Int64?
    var flag: Bool?
    var created: Date?
}

/// Fetch N rows of a 6-column table into typed records: FetchKit vs a raw sqlite3 loop, same file, same run.
enum FetchBenchmark {
    /// One side of the comparison, for `profile`.
    enum Side: String, CaseIterable {
        case raw, codable, rowdecodable, positional, rows, optionals, grdb, grdbcodable
    }

    /// A store and a raw connection over the same freshly written table of `rows` rows.
    struct Fixture {
        let directory: URL
        let keepsFile: Bool
        let store: SQLiteStore
        let raw: RawSQLiteReader
        let grdb: GRDBBenchReader
        let request = FetchRequest(BenchRecord.self, sortDescriptors: [.ascending("id")]).erased
        let entityRequest = BenchEntityRecord.byID

        /// A fresh table in a temporary directory, or with `path`, the table that file already holds
        /// (filled on first use and kept, so profiles of repeated runs contain no setup).
        init(rows: Int, path: String? = nil) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-bench-\(UUID())")
            keepsFile = path != nil
            let file = path ?? directory.appendingPathComponent("bench.sqlite").path
            let exists = path.map { FileManager.default.fileExists(atPath: $0) } ?? false
            if !exists && path == nil {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            store = try await SQLiteStore.open(path: file, schema: try Schema([BenchRecord.entity]))
            if !exists {
                try await store.write { tx in
                    for i in 0..<rows {
                        try tx.insert(
                            BenchRecord(
                                id: Int64(i + 1), name: "row number \(i)", score: Double(i) * 0.5,
                                count: Int64(i * 7), flag: i % 2 == 0,
                                created: Date(microsecondsSince1970: 1_700_000_000_000_000 + Int64(i))))
                    }
                }
            }
            raw = try RawSQLiteReader(path: file)
            grdb = try GRDBBenchReader(path: file)
        }

        func close() async {
            await store.close()
            if !keepsFile { try? FileManager.default.removeItem(at: directory) }
        }

        /// Reads every row through `side`, returning how many it read.
        func read(_ side: Side) async throws -> Int {
            switch side {
            case .raw: try raw.readAll().count
            case .codable: try await store.fetch(request, as: BenchRecord.self).count
            case .rowdecodable: try await store.fetch(request, as: BenchRowRecord.self).count
            case .positional: try await store.fetch(entityRequest).count
            case .rows: try await store.fetch(request).count
            case .optionals: try await store.fetch(request, as: BenchOptionalRecord.self).count
            case .grdb: try grdb.readByPosition().count
            case .grdbcodable: try grdb.readCodable().count
            }
        }
    }

    /// Raw loop, Codable records, RowDecodable records and GRDB's records (by position and Codable), measured
    /// round-robin in one run; each side is reported as the ratio of its median to the raw loop's.
    static func run(rows: Int, iterations: Int, only: Set<Side>? = nil) async throws {
        let fixture = try await Fixture(rows: rows)
        print("fetch \(rows) rows x 6 columns into typed records (release build)")
        var counts: [Side: Int] = [:]
        let sides: [(Side, String)] = [
            (.raw, "raw sqlite3 loop"), (.codable, "FetchKit Codable (BenchRecord)"),
            (.rowdecodable, "FetchKit RowDecodable (BenchRowRecord)"),
            (.positional, "FetchKit positional (@Entity)"), (.rows, "FetchKit rows ([Row])"),
            (.optionals, "FetchKit Codable, optionals"), (.grdb, "GRDB record by position"),
            (.grdbcodable, "GRDB Codable record")
        ].filter { side, _ in
            side == .raw || (only ?? [.codable, .rowdecodable, .positional, .grdb, .grdbcodable]).contains(side)
        }
        let measurements = try await compare(
            sides.map { side, name in (name, { counts[side] = try await fixture.read(side) }) },
            iterations: iterations)
        precondition(sides.allSatisfy { counts[$0.0] == rows }, "every side must read every row")
        for measurement in measurements { print(reportLine(measurement)) }
        for measurement in measurements.dropFirst() { reportRatio(measurements[0], measurement) }
        await fixture.close()
    }

    /// Runs one side `iterations` times, untimed and without warm-up, for a profiler; with `path`, on
    /// the table that file holds (written on first use).
    static func profile(_ side: Side, rows: Int, iterations: Int, path: String?) async throws {
        let fixture = try await Fixture(rows: rows, path: path)
        for _ in 0..<iterations {
            let count = try await fixture.read(side)
            precondition(count == rows, "every row must be read (a file from another --rows?)")
        }
        await fixture.close()
    }
}

/// The baseline: prepare, step, read six columns into Swift values, append — nothing else.
final class RawSQLiteReader: @unchecked Sendable {
    private var db: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw FetchKitError(.database, message: "cannot open \(path)", databaseCode: 0)
        }
    }

    deinit { sqlite3_close_v2(db) }

    func readAll() throws -> [BenchRecord] {
        var statement: OpaquePointer?
        let sql = "SELECT id, name, score, count, flag, created FROM bench ORDER BY id"
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw FetchKitError(.database, message: "prepare failed", databaseCode: 0, sql: sql)
        }
        defer { sqlite3_finalize(statement) }
        var result: [BenchRecord] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append(
                BenchRecord(
                    id: sqlite3_column_int64(statement, 0),
                    name: String(cString: sqlite3_column_text(statement, 1)),
                    score: sqlite3_column_double(statement, 2),
                    count: sqlite3_column_int64(statement, 3),
                    flag: sqlite3_column_int64(statement, 4) != 0,
                    created: Date(microsecondsSince1970: sqlite3_column_int64(statement, 5))))
        }
        return result
    }
}
