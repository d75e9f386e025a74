@_spi(Backend) import FetchKit
import FetchKitTesting
import Foundation
import Testing

/// A row-decodable record reading every type a row reads, required and optional.
private struct Everything: RowDecodable, Equatable {
    static let entity = Entity(
        "Everything",
        attributes: [
            Attribute("int", .integer), Attribute("int32", .integer), Attribute("double", .double),
            Attribute("float", .double), Attribute("text", .text), Attribute("flag", .bool), Attribute("when", .date),
            Attribute("bytes", .binary), Attribute("uuid", .text),
            Attribute("maybeInt", .integer, optional: true), Attribute("maybeInt32", .integer, optional: true),
            Attribute("maybeInt64", .integer, optional: true), Attribute("maybeDouble", .double, optional: true),
            Attribute("maybeFloat", .double, optional: true), Attribute("maybeText", .text, optional: true),
            Attribute("maybeFlag", .bool, optional: true), Attribute("maybeWhen", .date, optional: true),
            Attribute("maybeBytes", .binary, optional: true), Attribute("maybeUUID", .text, optional: true)
        ])

    var id: Int64
    var int = 0
    var int32: Int32 = 0
    var double = 0.0
    var float: Float = 0
    var text = ""
    var flag = false
    var when = Date(microsecondsSince1970: 0)
    var bytes = Data()
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
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

    init(id: Int64) { self.id = id }

    init(row: borrowing RecordRow) throws {
        id = try row["id"]
        int = try row["int"]
        int32 = try row["int32"]
        double = try row["double"]
        float = try row["float"]
        text = try row["text"]
        flag = try row["flag"]
        when = try row["when"]
        bytes = try row["bytes"]
        uuid = try row["uuid"]
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

    /// Every property set, at an extreme where it has one.
    static let full: Everything = {
        var record = Everything(id: 1)
        record.int = .min
        record.int32 = .max
        record.double = -0.0
        record.float = -.infinity
        record.text = "naïve 日本語 🎉 \"quoted\" \u{301}"
        record.flag = true
        record.when = Date(microsecondsSince1970: -1_234_567)
        record.bytes = Data([0, 255, 0])
        record.maybeInt = .max
        record.maybeInt32 = -1
        record.maybeInt64 = .min
        record.maybeDouble = .greatestFiniteMagnitude
        record.maybeFloat = .leastNonzeroMagnitude
        record.maybeText = ""
        record.maybeFlag = false
        record.maybeWhen = Date(microsecondsSince1970: 1_767_225_600_000_001)
        record.maybeBytes = Data()
        record.maybeUUID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")
        return record
    }()
}

/// Reads a column as a plain ``Value``, and again as an optional one.
private struct Dynamic: RowDecodable {
    static let entity = Entity("Dynamic", attributes: [Attribute("raw", .text, optional: true)])
    var id: Int64?
    var raw: String
    var optional: String

    init(row: borrowing RecordRow) throws {
        id = try row["id"]
        raw = (try row["raw"] as Value).description
        optional = (try row["raw"] as Value?)?.description ?? "absent"
    }
}

/// A row-decodable record whose reads depend on a value, and which asks whether columns exist.
private struct Branching: RowDecodable, Equatable {
    static let entity = Entity(
        "Branching",
        attributes: [
            Attribute("kind", .text), Attribute("number", .integer, optional: true),
            Attribute("text", .text, optional: true)
        ])
    var id: Int64?
    var kind: String
    var number: Int?
    var text: String?

    init(id: Int64?, kind: String, number: Int? = nil, text: String? = nil) {
        (self.id, self.kind, self.number, self.text) = (id, kind, number, text)
    }

    init(row: borrowing RecordRow) throws {
        kind = try row["kind"]
        if kind == "number" {
            number = try row["number"]
        } else if row.contains("text") {
            text = try row["text"]
        }
        id = try row["id"]
    }
}

/// Throws an error of its own for a negative value.
private struct Picky: RowDecodable {
    struct Negative: Error {}
    static let entity = Entity("Picky", attributes: [Attribute("value", .integer)])
    var id: Int64?
    var value: Int

    init(row: borrowing RecordRow) throws {
        id = try row["id"]
        value = try row["value"]
        if value < 0 { throw Negative() }
    }
}

/// Rows sharing one layout, as a fetch returns them (so decoders follow their plan).
private func sharingOneLayout(_ rows: [Row]) throws -> [Row] {
    let first = try #require(rows.first)
    let layout = RowLayout(names: first.names)
    return rows.map { row in Row(layout: layout, values: first.names.map { row[$0] ?? .null }) }
}

@Suite("RowDecodable: records read by attribute name through RecordRow")
struct RowDecodableTests {
    @Test("every type a row reads, required and optional, set and nil, round-trips")
    func everyTypeRoundTrips() throws {
        let records = [Everything.full, Everything(id: 2)]
        let rows = try sharingOneLayout(records.map { try RecordCoding.encode($0) })
        let decoder = RecordDecoder(Everything.self)
        for _ in 0..<2 {
            #expect(try rows.map { try decoder.decode(from: $0) } == records)
        }
        let back = try RecordCoding.decode(Everything.self, from: rows[0])
        #expect(back == Everything.full)
        #expect(back.double.sign == .minus)
    }

    @Test("values convert as Value converts them: an integer for a Double, 0 or 1 for a Bool, microseconds for a Date")
    func conversions() throws {
        var row = try RecordCoding.encode(Everything(id: 3))
        row.set("double", to: .integer(4))
        row.set("flag", to: .integer(1))
        row.set("when", to: .integer(5))
        row.set("maybeFloat", to: .integer(-2))
        let record = try RecordCoding.decode(Everything.self, from: row)
        #expect(record.double == 4.0 && record.flag && record.when == Date(microsecondsSince1970: 5))
        #expect(record.maybeFloat == -2.0)
    }

    @Test(
        "a value that does not fit throws recordMapping naming the attribute and the value",
        arguments: [
            ("int", Value.text("abc"), "'int' expected Int, found \"abc\""),
            ("int32", .integer(Int64(Int32.max) + 1), "'int32' expected Int32, found 2147483648"),
            ("flag", .integer(2), "'flag' expected Bool, found 2"),
            ("when", .text("tomorrow"), "'when' expected Date, found \"tomorrow\""),
            ("bytes", .text("text"), "'bytes' expected Data, found \"text\""),
            ("uuid", .text("not a uuid"), "'uuid' expected UUID, found \"not a uuid\""),
            ("text", .null, "'text' expected String, found NULL"),
            ("maybeInt64", .double(0.5), "'maybeInt64' expected Int64, found 0.5"),
            ("maybeUUID", .integer(1), "'maybeUUID' expected Optional<UUID>, found 1")
        ])
    func mismatches(attribute: String, value: Value, detail: String) throws {
        var row = try RecordCoding.encode(Everything.full)
        row.set(attribute, to: value)
        #expect(throws: FetchKitError.recordMapping(entity: "Everything", detail: detail)) {
            try RecordCoding.decode(Everything.self, from: row)
        }
    }

    @Test("a missing column throws for a required property and reads nil for an optional one")
    func missingColumns() throws {
        let full = try RecordCoding.encode(Everything.full)
        let withoutText = Row(full.names.filter { $0 != "text" }.map { ($0, full[$0] ?? .null) })
        #expect(
            throws: FetchKitError.recordMapping(
                entity: "Everything", detail: "'text' expected String, but the row has no column 'text'"
            )
        ) {
            try RecordCoding.decode(Everything.self, from: withoutText)
        }
        let optionals = ["maybeInt", "maybeText", "maybeWhen", "maybeBytes", "maybeUUID", "maybeFlag"]
        let withoutOptionals = Row(full.names.filter { !optionals.contains($0) }.map { ($0, full[$0] ?? .null) })
        let record = try RecordCoding.decode(Everything.self, from: withoutOptionals)
        #expect(record.maybeInt == nil && record.maybeText == nil && record.maybeWhen == nil)
        #expect(record.maybeBytes == nil && record.maybeUUID == nil && record.maybeFlag == nil)
        #expect(record.maybeInt32 == Everything.full.maybeInt32)
    }

    @Test("a Value reads any column as it is; a missing column throws, unless the Value is optional")
    func values() throws {
        let rows: [Row] = [["id": 1, "raw": .blob(Data([7]))], ["id": 2, "raw": .null], ["id": 3, "raw": 2.5]]
        let decoded = try rows.map { try RecordCoding.decode(Dynamic.self, from: $0) }
        #expect(decoded.map(\.raw) == [Value.blob(Data([7])).description, "NULL", "2.5"])
        #expect(decoded.map(\.optional) == [Value.blob(Data([7])).description, "absent", "2.5"])
        #expect(
            throws: FetchKitError.recordMapping(
                entity: "Dynamic", detail: "'raw' expected Value, but the row has no column 'raw'"
            )
        ) {
            try RecordCoding.decode(Dynamic.self, from: ["id": 4] as Row)
        }
    }

    @Test("reads that differ from row to row decode every row, over one layout and reused decoders")
    func branchingReads() throws {
        let records = [
            Branching(id: 1, kind: "number", number: 5), Branching(id: 2, kind: "text", text: "five"),
            Branching(id: 3, kind: "number", number: nil), Branching(id: 4, kind: "text", text: nil),
            Branching(id: 5, kind: "text", text: "seven"), Branching(id: 6, kind: "number", number: 7)
        ]
        let rows = try sharingOneLayout(records.map { try RecordCoding.encode($0) })
        let decoder = RecordDecoder(Branching.self)
        for _ in 0..<2 {
            for (row, record) in zip(rows, records) {
                #expect(try decoder.decode(from: row) == record)
                #expect(try RecordCoding.decode(Branching.self, from: row) == record)
            }
        }
        let withoutText: Row = ["id": 7, "kind": "text", "number": .null]
        #expect(try decoder.decode(from: withoutText) == Branching(id: 7, kind: "text"))
    }

    @Test("a reused decoder follows rows whose columns come in another order")
    func changingLayouts() throws {
        let decoder = RecordDecoder(Branching.self)
        let forward: Row = ["id": 1, "kind": "number", "number": 2, "text": .null]
        let backward: Row = ["text": "t", "number": .null, "kind": "text", "id": 2]
        for _ in 0..<3 {
            #expect(try decoder.decode(from: forward) == Branching(id: 1, kind: "number", number: 2))
            #expect(try decoder.decode(from: backward) == Branching(id: 2, kind: "text", text: "t"))
        }
    }

    @Test("a record's own error is reported as recordMapping; later rows still decode")
    func recordErrors() throws {
        let decoder = RecordDecoder(Picky.self)
        let rows = try sharingOneLayout([["id": 1, "value": 1], ["id": 2, "value": -1], ["id": 3, "value": 3]])
        #expect(try decoder.decode(from: rows[0]).value == 1)
        let error = try #require(throws: FetchKitError.self) { try decoder.decode(from: rows[1]) }
        guard error.code == .recordMapping, let entity = error.entity else {
            Issue.record("expected recordMapping, got \(error)")
            return
        }
        let detail = error.message
        #expect(entity == "Picky" && detail.contains("Negative"))
        #expect(try decoder.decode(from: rows[2]).value == 3)
    }
}
