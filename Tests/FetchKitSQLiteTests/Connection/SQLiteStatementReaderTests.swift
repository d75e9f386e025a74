import FetchKit
import Foundation
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitSQLite

@Suite("SQLite statement reader: typed reads agree with value(at:)")
struct SQLiteStatementReaderTests {
    /// One value of every storage class, and the edge cases of each conversion `value(at:as:)` makes.
    static let stored: [(sql: String, label: String)] = [
        ("NULL", "null"), ("0", "integer 0"), ("1", "integer 1"), ("2", "integer 2"), ("-5", "integer -5"),
        ("9007199254740993", "integer 2^53+1"), ("1.5", "float 1.5"), ("3.0", "float 3.0"),
        ("-0.0", "float -0.0"), ("1e300", "float 1e300"), ("'abc'", "text"), ("''", "empty text"),
        ("x'00ff'", "blob"), ("x''", "empty blob")
    ]

    static let types: [AttributeType?] = [.integer, .double, .text, .bool, .date, .binary, nil]

    /// Every typed read of the first column of `SELECT <sql>`, read as `type`, next to `value(at:)`.
    private func read(_ sql: String, as type: AttributeType?) throws -> (value: Value, typed: [Value?]) {
        let connection = try SQLiteConnection.open(
            .init(path: nil, readOnly: false, busyTimeoutMilliseconds: 100, statementCacheCapacity: 0))
        return try connection.withStatement("SELECT \(sql)") { statement in
            let columns = type.map { [ResultColumn(name: "v", type: $0)] } ?? []
            let reader = SQLiteStatementReader(statement, columns: columns)
            let hasRow = try statement.step()
            #expect(hasRow)
            let typed: [Value?] = [
                reader.integer(at: 0).map(Value.integer), reader.double(at: 0).map(Value.double),
                reader.text(at: 0).map(Value.text), reader.bool(at: 0).map(Value.bool),
                reader.date(at: 0).map(Value.date), reader.blob(at: 0).map(Value.blob)
            ]
            return (reader.value(at: 0), typed)
        }
    }

    @Test("each typed read returns the value exactly when value(at:) has its case")
    func typedReadsMatchValues() throws {
        for (sql, label) in Self.stored {
            for type in Self.types {
                let (value, typed) = try read(sql, as: type)
                let matching = typed.compactMap { $0 }
                if value.isNull {
                    #expect(matching.isEmpty, "\(label) as \(String(describing: type))")
                } else {
                    // Exactly one typed read answers, with the very value (bit for bit: Value's ==).
                    #expect(matching == [value], "\(label) as \(String(describing: type)): \(value) vs \(typed)")
                }
            }
        }
    }
}
