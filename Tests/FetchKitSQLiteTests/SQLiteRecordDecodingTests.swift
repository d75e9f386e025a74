import FetchKit
import FetchKitSQLite
import Foundation
import Testing

/// A record with a property of every supported type, required and optional.
private struct AllTypes: Record, Equatable {
    enum Mood: String, Codable, Equatable { case calm, busy }

    static let entity = Entity(
        "AllTypes", table: "all_types",
        attributes: [
            Attribute("int", .integer), Attribute("int8", .integer), Attribute("int16", .integer),
            Attribute("int32", .integer), Attribute("int64", .integer), Attribute("uint", .integer),
            Attribute("uint8", .integer), Attribute("uint16", .integer), Attribute("uint32", .integer),
            Attribute("uint64", .integer), Attribute("double", .double), Attribute("float", .double),
            Attribute("text", .text), Attribute("flag", .bool), Attribute("when", .date), Attribute("bytes", .binary),
            Attribute("uuid", .text), Attribute("mood", .text),
            Attribute("maybeInt", .integer, optional: true), Attribute("maybeInt8", .integer, optional: true),
            Attribute("maybeInt32", .integer, optional: true), Attribute("maybeInt64", .integer, optional: true),
            Attribute("maybeUInt64", .integer, optional: true), Attribute("maybeDouble", .double, optional: true),
            Attribute("maybeFloat", .double, optional: true), Attribute("maybeText", .text, optional: true),
            Attribute("maybeFlag", .bool, optional: true), Attribute("maybeWhen", .date, optional: true),
            Attribute("maybeBytes", .binary, optional: true), Attribute("maybeUUID", .text, optional: true),
            Attribute("maybeMood", .text, optional: true),
        ])

    var id: Int64?
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    var float: Float = 0
    var text = ""
    var flag = false
    var when = Date(microsecondsSince1970: 0)
    var bytes = Data()
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    var mood = Mood.calm
    var maybeInt: Int?
    var maybeInt8: Int8?
    var maybeInt32: Int32?
    var maybeInt64: Int64?
    var maybeUInt64: UInt64?
    var maybeDouble: Double?
    var maybeFloat: Float?
    var maybeText: String?
    var maybeFlag: Bool?
    var maybeWhen: Date?
    var maybeBytes: Data?
    var maybeUUID: UUID?
    var maybeMood: Mood?

    /// Every property at an extreme, every optional set.
    static let extremes = AllTypes(
        int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint: UInt(Int64.max), uint8: .max,
        uint16: .max, uint32: .max, uint64: UInt64(Int64.max), double: -0.0, float: -.infinity,
        text: "naïve 日本語 🎉 \"quoted\" \u{301}", flag: true, when: Date(microsecondsSince1970: -1_234_567),
        bytes: Data([0, 255, 0]), mood: .busy, maybeInt: .max, maybeInt8: -1, maybeInt32: .max, maybeInt64: .min,
        maybeUInt64: 0, maybeDouble: .greatestFiniteMagnitude, maybeFloat: .leastNonzeroMagnitude, maybeText: "",
        maybeFlag: false, maybeWhen: Date(microsecondsSince1970: 1_767_225_600_000_001), maybeBytes: Data(),
        maybeUUID: UUID(uuidString: "00000000-0000-0000-0000-000000000001"), maybeMood: .calm)
}

/// The properties of `AllTypes` a ``RecordRow`` reads, read by `init(row:)` from the same table.
private struct RowTypes: RowDecodable, Equatable {
    static let entity = AllTypes.entity
    var id: Int64?
    var int: Int
    var int32: Int32
    var int64: Int64
    var double: Double
    var float: Float
    var text: String
    var flag: Bool
    var when: Date
    var bytes: Data
    var uuid: UUID
    var mood: String
    var maybeInt: Int?
    var maybeInt32: Int32?
    var maybeInt64: Int64?
    var maybeDouble: Double?
    var maybeFloat: Float?
    var maybeText: String?
    var maybeFlag: Bool?
    var maybeWhen: Date?
    var maybeBytes: Data?
    var maybeUUID: UUID?

    init(row: borrowing RecordRow) throws {
        id = try row["id"]
        int = try row["int"]
        int32 = try row["int32"]
        int64 = try row["int64"]
        double = try row["double"]
        float = try row["float"]
        text = try row["text"]
        flag = try row["flag"]
        when = try row["when"]
        bytes = try row["bytes"]
        uuid = try row["uuid"]
        mood = try row["mood"]
        maybeInt = try row["maybeInt"]
        maybeInt32 = try row["maybeInt32"]
        maybeInt64 = try row["maybeInt64"]
        maybeDouble = try row["maybeDouble"]
        maybeFloat = try row["maybeFloat"]
        maybeText = try row["maybeText"]
        maybeFlag = try row["maybeFlag"]
        maybeWhen = try row["maybeWhen"]
        maybeBytes = try row["maybeBytes"]
        maybeUUID = try row["maybeUUID"]
    }

    /// The same properties of a Codable record.
    init(_ record: AllTypes) {
        (id, int, int32, int64, double, float) =
            (record.id, record.int, record.int32, record.int64, record.double, record.float)
        (text, flag, when, bytes, uuid, mood) =
            (record.text, record.flag, record.when, record.bytes, record.uuid, record.mood.rawValue)
        (maybeInt, maybeInt32, maybeInt64, maybeDouble, maybeFloat) =
            (record.maybeInt, record.maybeInt32, record.maybeInt64, record.maybeDouble, record.maybeFloat)
        (maybeText, maybeFlag, maybeWhen, maybeBytes, maybeUUID) =
            (record.maybeText, record.maybeFlag, record.maybeWhen, record.maybeBytes, record.maybeUUID)
    }
}

/// Reads one property of `AllTypes` rows, as a record that needs it present and non-null.
private struct RequiredText: Record {
    static let entity = AllTypes.entity
    var id: Int64?
    var maybeText: String
}

/// Reads a property `AllTypes` has no attribute for.
private struct Extra: Record {
    static let entity = AllTypes.entity
    var id: Int64?
    var nope: Int
}

@Suite("SQLite store: records decode every attribute type straight from the statement")
struct SQLiteRecordDecodingTests {
    private func withStore(_ body: (SQLiteStore) async throws -> Void) async throws {
        let store = try await SQLiteStore.inMemory(schema: try Schema([AllTypes.entity]))
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    private func all(_ store: SQLiteStore) async throws -> [AllTypes] {
        try await store.fetch(FetchRequest(AllTypes.self, sortDescriptors: [.ascending("id")]), as: AllTypes.self)
    }

    private func allRows(_ store: SQLiteStore) async throws -> [RowTypes] {
        try await store.fetch(FetchRequest(RowTypes.self, sortDescriptors: [.ascending("id")]), as: RowTypes.self)
    }

    @Test("every type, required and optional, nil and at its extremes, comes back equal")
    func everyTypeRoundTrips() async throws {
        try await withStore { store in
            let records = [AllTypes(), AllTypes.extremes, AllTypes(text: "third")]
            let inserted = try await store.write { tx in try records.map { try tx.insert($0) } }
            let fetched = try await all(store)
            #expect(fetched == inserted)
            let extreme = try #require(fetched.dropFirst().first)
            #expect(extreme.double.sign == .minus)
            #expect(extreme.maybeText == "")
            #expect(try await allRows(store) == inserted.map(RowTypes.init))
        }
    }

    @Test("values stored in another class convert as Value does: an integer in a double column is a Double")
    func conversionsFallBackToValues() async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(AllTypes())
                try tx.execute("UPDATE all_types SET double = 5, maybeDouble = -2, float = 3", [])
            }
            let record = try #require(try await all(store).first)
            #expect(record.double == 5.0 && record.maybeDouble == -2.0 && record.float == 3.0)
            #expect(try await allRows(store) == [RowTypes(record)])
        }
    }

    @Test(
        "RowDecodable records throw the same recordMapping as Codable ones",
        arguments: [
            ("int = 'abc'", "'int' expected Int, found \"abc\""),
            ("int32 = 3000000000", "'int32' expected Int32, found 3000000000"),
            ("flag = 2", "'flag' expected Bool, found 2"),
            ("\"when\" = 'tomorrow'", "'when' expected Date, found \"tomorrow\""),
            ("bytes = 'text'", "'bytes' expected Data, found \"text\""),
            ("uuid = 'not a uuid'", "'uuid' expected UUID, found \"not a uuid\""),
            ("maybeInt32 = 3000000000", "'maybeInt32' expected Int32, found 3000000000"),
            ("maybeFlag = 5", "'maybeFlag' expected Bool, found 5"),
            ("maybeWhen = 1.5", "'maybeWhen' expected Date, found 1.5"),
        ])
    func rowDecodableMismatches(assignment: String, detail: String) async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(AllTypes())
                try tx.execute("UPDATE all_types SET \(assignment)", [])
            }
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await allRows(store)
            }
        }
    }

    @Test(
        "a value that does not fit its property throws recordMapping naming the property and the value",
        arguments: [
            ("int = 'abc'", "'int' expected Int, found \"abc\""),
            ("int8 = 300", "'int8' expected Int8, found 300"),
            ("uint = -1", "'uint' expected UInt, found -1"),
            ("flag = 2", "'flag' expected Bool, found 2"),
            ("\"when\" = 'tomorrow'", "'when' expected Date, found \"tomorrow\""),
            ("bytes = 'text'", "'bytes' expected Data, found \"text\""),
            ("maybeInt32 = 3000000000", "'maybeInt32' expected Int32, found 3000000000"),
            ("maybeFlag = 5", "'maybeFlag' expected Bool, found 5"),
            ("maybeWhen = 1.5", "'maybeWhen' expected Date, found 1.5"),
        ])
    func mismatchesNameTheProperty(assignment: String, detail: String) async throws {
        try await withStore { store in
            try await store.write { tx in
                try tx.insert(AllTypes())
                try tx.execute("UPDATE all_types SET \(assignment)", [])
            }
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await all(store)
            }
        }
    }

    @Test("a row failing midway through a fetch throws; the records before it are dropped, the store still works")
    func failureMidway() async throws {
        try await withStore { store in
            let records = (0..<200).map { AllTypes(int: $0, text: "record \($0)") }
            try await store.write { tx in
                for record in records { try tx.insert(record) }
                try tx.execute("UPDATE all_types SET flag = 7 WHERE id = 150", [])
            }
            let detail = "'flag' expected Bool, found 7"
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await all(store)
            }
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await allRows(store)
            }
            try await store.write { tx in try tx.execute("UPDATE all_types SET flag = 0 WHERE id = 150", []) }
            #expect(try await all(store).map(\.text) == records.map(\.text))
            #expect(try await allRows(store).map(\.text) == records.map(\.text))
        }
    }

    @Test("NULL in a non-optional property throws recordMapping naming the property")
    func nullInRequiredProperty() async throws {
        try await withStore { store in
            try await store.write { tx in try tx.insert(AllTypes()) }
            let request = FetchRequest(RequiredText.self)
            let detail = "'maybeText' expected String, found NULL"
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await store.fetch(request, as: RequiredText.self)
            }
        }
    }

    @Test("a property without a column throws recordMapping naming the property")
    func missingColumn() async throws {
        try await withStore { store in
            try await store.write { tx in try tx.insert(AllTypes()) }
            let detail = "'nope' expected Int, but the row has no column 'nope'"
            await #expect(throws: FetchKitError.recordMapping(entity: "AllTypes", detail: detail)) {
                try await store.fetch(FetchRequest(Extra.self), as: Extra.self)
            }
        }
    }
}
