import Foundation
import GRDB

/// The peer a Swift developer would pick instead, reading the same file: GRDB's records, decoded by column
/// position (GRDB's "optimized record": `init(row:)` reading `row[0]`…, over a fixed selection) and through
/// `Codable`.
final class GRDBBenchReader: @unchecked Sendable {
    private let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every row as a by-position record.
    func readByPosition() throws -> [GRDBBenchRecord] {
        try queue.read { db in try GRDBBenchRecord.order(Column("id")).fetchAll(db) }
    }

    /// Every row as a `Codable` record.
    func readCodable() throws -> [GRDBCodableBenchRecord] {
        try queue.read { db in try GRDBCodableBenchRecord.order(Column("id")).fetchAll(db) }
    }
}

/// The six columns read by position, in the order of its `databaseSelection`.
struct GRDBBenchRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "bench"
    static var databaseSelection: [any SQLSelectable] {
        [Column("id"), Column("name"), Column("score"), Column("count"), Column("flag"), Column("created")]
    }
    var id: Int64
    var name: String
    var score: Double
    var count: Int64
    var flag: Bool
    var created: Date

    init(row: Row) throws {
        id = row[0]
        name = row[1]
        score = row[2]
        count = row[3]
        flag = row[4]
        // FetchKit stores a date as integer microseconds since 1970.
        created = Date(microsecondsSince1970: row[5])
    }
}

/// The same six columns through GRDB's `Codable` support (the date read as its stored microseconds).
struct GRDBCodableBenchRecord: FetchableRecord, TableRecord, Decodable {
    static let databaseTableName = "bench"
    var id: Int64
    var name: String
    var score: Double
    var count: Int64
    var flag: Bool
    var created: Int64
}
