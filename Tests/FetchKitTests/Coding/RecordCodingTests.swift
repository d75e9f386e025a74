@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

/// A record with one property of every supported kind.
private struct Everything: Record, Equatable {
    enum Mood: String, Codable, Equatable { case calm, busy }

    static let entity = Entity(
        "Everything", primaryKey: .text("key"),
        attributes: [
            Attribute("int", .integer), Attribute("int64", .integer), Attribute("int32", .integer),
            Attribute("double", .double), Attribute("float", .double), Attribute("text", .text),
            Attribute("flag", .bool), Attribute("when", .date), Attribute("bytes", .binary),
            Attribute("uuid", .text), Attribute("mood", .text),
            Attribute("maybeInt", .integer, optional: true), Attribute("maybeText", .text, optional: true),
            Attribute("maybeDate", .date, optional: true), Attribute("maybeData", .binary, optional: true),
            Attribute("maybeUUID", .text, optional: true), Attribute("maybeMood", .text, optional: true)
        ])

    var key: String
    var int: Int
    var int64: Int64
    var int32: Int32
    var double: Double
    var float: Float
    var text: String
    var flag: Bool
    var when: Date
    var bytes: Data
    var uuid: UUID
    var mood: Mood
    var maybeInt: Int?
    var maybeText: String?
    var maybeDate: Date?
    var maybeData: Data?
    var maybeUUID: UUID?
    var maybeMood: Mood?

    static func sample(_ key: String) -> Everything {
        Everything(
            key: key, int: 7, int64: 42, int32: -3, double: 1.5, float: 0.25, text: "text", flag: true,
            when: Date(microsecondsSince1970: 1_700_000_000_123_456), bytes: Data([1, 2, 3]),
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(), mood: .calm)
    }
}

/// A record whose `CodingKeys` rename two properties.
private struct Renamed: Record, Equatable {
    static let entity = Entity(
        "Renamed", attributes: [Attribute("title", .text), Attribute("done", .bool, default: false)])

    enum CodingKeys: String, CodingKey {
        case id
        case name = "title"
        case isDone = "done"
    }

    static func attributeName(forProperty name: String) -> String {
        switch name {
        case "name": return "title"
        case "isDone": return "done"
        default: return name
        }
    }

    var id: Int64?
    var name: String
    var isDone: Bool
}

/// A record with a property that is not an attribute value.
private struct WithNested: Record {
    struct Point: Codable {
        var x: Int
        var y: Int
    }
    static let entity = Entity("WithNested", attributes: [Attribute("point", .text)])
    var id: Int64?
    var point: Point
}

/// A record with a list property.
private struct WithList: Record {
    static let entity = Entity("WithList", attributes: [Attribute("tags", .text)])
    var id: Int64?
    var tags: [String]
}

/// A record with a property its entity does not declare.
private struct WithExtra: Record {
    static let entity = Fixtures.todo
    var id: Int64?
    var title: String
    var extra: Int
}

/// A record with an unsigned property.
private struct WithUnsigned: Record {
    static let entity = Entity("WithUnsigned", attributes: [Attribute("count", .integer)])
    var id: Int64?
    var count: UInt64
}

/// A record whose `init(from:)` asks for different keys depending on a value.
private struct Branching: Record, Equatable {
    static let entity = Entity(
        "Branching",
        attributes: [
            Attribute("kind", .text), Attribute("number", .integer, optional: true),
            Attribute("text", .text, optional: true)
        ])

    enum CodingKeys: String, CodingKey { case id, kind, number, text }

    var id: Int64?
    var kind: String
    var number: Int?
    var text: String?

    init(id: Int64?, number: Int) {
        (self.id, kind, self.number, text) = (id, "number", number, nil)
    }

    init(id: Int64?, text: String) {
        (self.id, kind, number, self.text) = (id, "text", nil, text)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        kind = try container.decode(String.self, forKey: .kind)
        if kind == "number" {
            number = try container.decode(Int.self, forKey: .number)
        } else if container.contains(.text) {
            text = try container.decode(String.self, forKey: .text)
        }
    }
}

/// A record that swallows decoding errors with `try?` and asks for different keys per row.
private struct Lenient: Record, Equatable {
    static let entity = Branching.entity

    enum CodingKeys: String, CodingKey { case id, kind, number, text }

    var id: Int64?
    var kind: String
    var number: Int?
    var text: String?

    init(id: Int64?, kind: String, number: Int?, text: String?) {
        (self.id, self.kind, self.number, self.text) = (id, kind, number, text)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try? container.decode(Int64.self, forKey: .id)
        kind = (try? container.decode(String.self, forKey: .kind)) ?? ""
        if kind == "number" { number = try? container.decode(Int.self, forKey: .number) }
        text = try? container.decode(String.self, forKey: .text)
    }
}

/// A record that lists the attributes its row has.
private struct Inventory: Record {
    static let entity = Entity(
        "Inventory", attributes: [Attribute("a", .integer, optional: true), Attribute("b", .integer, optional: true)])

    enum CodingKeys: String, CodingKey { case id, a, b }

    var id: Int64?
    var present: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        present = container.allKeys.map(\.stringValue).sorted()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
    }
}

/// A reader without a layout identity, over parallel arrays.
private struct ArrayReader: ColumnReader {
    var names: [String]
    var values: [Value]
    func columnIndex(of attribute: String) -> Int? { names.firstIndex(of: attribute) }
    func value(at index: Int) -> Value { values[index] }
}

/// The same rows over one shared layout, as a fetch returns them (so decoders follow their plan).
private func sharingOneLayout(_ rows: [Row]) throws -> [Row] {
    let first = try #require(rows.first)
    let layout = RowLayout(names: first.names)
    return rows.map { row in Row(layout: layout, values: first.names.map { row[$0] ?? .null }) }
}

@Suite struct RecordCodingTests {
    @Test func sampleTodosRoundTrip() throws {
        for todo in Fixtures.sampleTodos {
            let row = try RecordCoding.encode(todo)
            #expect(try RecordCoding.decode(Fixtures.TodoRecord.self, from: row) == todo)
        }
    }

    @Test func encodedRowListsAttributesInEntityOrderWithNulls() throws {
        let todo = Fixtures.TodoRecord(id: nil, title: "Buy milk", priority: 2)
        let row = try RecordCoding.encode(todo)
        #expect(row.names == Fixtures.todo.attributes.map(\.name))
        #expect(
            row == [
                "id": .null, "title": "Buy milk", "notes": .null, "priority": 2, "ordering": .null,
                "done": false, "due": .null, "attachment": .null, "categoryID": .null
            ])
    }

    @Test func everyTypeRoundTripsAtItsExtremes() throws {
        var values = Everything.sample("a")
        values.int = .min
        values.int64 = .max
        values.int32 = .min
        values.double = -0.0
        values.float = -.infinity
        values.text = "naïve 日本語 🎉 \"quoted\" \u{301}"
        values.flag = false
        values.when = Date(microsecondsSince1970: -1_234_567)
        values.bytes = Data()
        values.maybeInt = .max
        values.maybeText = ""
        values.maybeDate = Date(microsecondsSince1970: 1_767_225_600_000_001)
        values.maybeData = Data([0, 255, 0, 10, 13])
        values.maybeUUID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")
        values.maybeMood = .busy
        let row = try RecordCoding.encode(values)
        let back = try RecordCoding.decode(Everything.self, from: row)
        #expect(back == values)
        #expect(back.double.sign == .minus)
        #expect(row["int64"] == .integer(.max))
        #expect(row["int"] == .integer(.min))
        #expect(row["double"] == .double(-0.0))
        #expect(row["uuid"] == .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(row["mood"] == .text("calm"))
        #expect(row["maybeMood"] == .text("busy"))

        var other = Everything.sample("b")
        other.int64 = .min
        other.double = .infinity
        other.float = .greatestFiniteMagnitude
        #expect(try RecordCoding.decode(Everything.self, from: RecordCoding.encode(other)) == other)
    }

    @Test func nilOptionalsEncodeAsNullAndDecodeBack() throws {
        let values = Everything.sample("nil")
        let row = try RecordCoding.encode(values)
        for name in ["maybeInt", "maybeText", "maybeDate", "maybeData", "maybeUUID", "maybeMood"] {
            #expect(row[name] == .null, "\(name)")
        }
        #expect(try RecordCoding.decode(Everything.self, from: row) == values)
    }

    @Test func dateKeepsMicroseconds() throws {
        let due = Date(microsecondsSince1970: 1_700_000_000_123_457)
        let row = try RecordCoding.encode(Fixtures.TodoRecord(id: 1, title: "t", due: due))
        let back = try RecordCoding.decode(Fixtures.TodoRecord.self, from: row)
        #expect(back.due?.microsecondsSince1970 == 1_700_000_000_123_457)
    }

    @Test func missingOptionalColumnsDecodeAsNil() throws {
        let row: Row = ["title": "only a title", "priority": 1, "done": true]
        let todo = try RecordCoding.decode(Fixtures.TodoRecord.self, from: row)
        #expect(todo == Fixtures.TodoRecord(title: "only a title", priority: 1, done: true))
    }

    @Test func integerAndBoolColumnsConvertToTheirAttributeTypes() throws {
        let row: Row = [
            "id": 3, "title": "t", "priority": .double(2), "ordering": 4, "done": 1,
            "due": .integer(1_000_001)
        ]
        let todo = try RecordCoding.decode(Fixtures.TodoRecord.self, from: row)
        #expect(todo.priority == 2)
        #expect(todo.ordering == 4.0)
        #expect(todo.done)
        #expect(todo.due == Date(microsecondsSince1970: 1_000_001))
    }

    @Test func encodingCoercesToTheAttributeType() throws {
        struct IntoDouble: Record {
            static let entity = Entity("IntoDouble", attributes: [Attribute("ratio", .double)])
            var id: Int64?
            var ratio: Int
        }
        let row = try RecordCoding.encode(IntoDouble(id: 1, ratio: 3))
        #expect(row["ratio"] == .double(3))
    }

    @Test func missingColumnForNonOptionalPropertyThrows() {
        let row: Row = ["id": 1, "priority": 1, "done": false]
        #expect(
            throws: FetchKitError.recordMapping(
                entity: "Todo", detail: "'title' expected String, but the row has no column 'title'"
            )
        ) {
            try RecordCoding.decode(Fixtures.TodoRecord.self, from: row)
        }
    }

    @Test func valueOfTheWrongTypeThrowsNamingPropertyAndValue() {
        let row: Row = ["id": 1, "title": "t", "priority": "abc", "done": false]
        #expect(throws: FetchKitError.recordMapping(entity: "Todo", detail: "'priority' expected Int, found \"abc\"")) {
            try RecordCoding.decode(Fixtures.TodoRecord.self, from: row)
        }
        let wrongDate: Row = ["id": 1, "title": "t", "priority": 1, "done": false, "due": "tomorrow"]
        let tomorrow = FetchKitError.recordMapping(entity: "Todo", detail: "'due' expected Date, found \"tomorrow\"")
        #expect(throws: tomorrow) {
            try RecordCoding.decode(Fixtures.TodoRecord.self, from: wrongDate)
        }
        let nullTitle: Row = ["id": 1, "title": .null, "priority": 1, "done": false]
        #expect(throws: FetchKitError.recordMapping(entity: "Todo", detail: "'title' expected String, found NULL")) {
            try RecordCoding.decode(Fixtures.TodoRecord.self, from: nullTitle)
        }
        let badBool: Row = ["id": 1, "title": "t", "priority": 1, "done": 2]
        #expect(throws: FetchKitError.recordMapping(entity: "Todo", detail: "'done' expected Bool, found 2")) {
            try RecordCoding.decode(Fixtures.TodoRecord.self, from: badBool)
        }
    }

    @Test func integersThatDoNotFitThrow() throws {
        var row = try RecordCoding.encode(Everything.sample("x"))
        row.set("int32", to: .integer(Int64(Int32.max) + 1))
        #expect(
            throws: FetchKitError.recordMapping(
                entity: "Everything", detail: "'int32' expected Int32, found 2147483648"
            )
        ) {
            try RecordCoding.decode(Everything.self, from: row)
        }
        #expect(
            throws: FetchKitError.recordMapping(
                entity: "WithUnsigned", detail: "'count' value 18446744073709551615 does not fit a 64-bit integer"
            )
        ) {
            try RecordCoding.encode(WithUnsigned(id: 1, count: .max))
        }
        let unsigned = try RecordCoding.decode(WithUnsigned.self, from: ["id": 1, "count": 5] as Row)
        #expect(unsigned.count == 5)
        let negative = FetchKitError.recordMapping(entity: "WithUnsigned", detail: "'count' expected UInt64, found -1")
        #expect(throws: negative) {
            try RecordCoding.decode(WithUnsigned.self, from: ["id": 1, "count": -1] as Row)
        }
    }

    @Test func invalidEnumRawValueThrowsRecordMapping() throws {
        var row = try RecordCoding.encode(Everything.sample("x"))
        row.set("mood", to: "angry")
        let error = try #require(throws: FetchKitError.self) {
            try RecordCoding.decode(Everything.self, from: row)
        }
        guard error.code == .recordMapping, let entity = error.entity else {
            Issue.record("expected recordMapping, got \(error)")
            return
        }
        let detail = error.message
        #expect(entity == "Everything")
        #expect(detail.contains("'mood'"))
        #expect(detail.contains("angry"))
    }

    @Test func unknownEncodedKeyThrowsUnknownKey() {
        #expect(throws: FetchKitError.unknownKey("extra", entity: "Todo", offset: nil)) {
            try RecordCoding.encode(WithExtra(id: 1, title: "t", extra: 2))
        }
    }

    @Test func valueThatDoesNotFitItsAttributeThrowsOnEncode() {
        struct TextIntoInteger: Record {
            static let entity = Entity("TextIntoInteger", attributes: [Attribute("priority", .integer)])
            var id: Int64?
            var priority: String
        }
        #expect(
            throws: FetchKitError.recordMapping(
                entity: "TextIntoInteger", detail: "'priority' is an integer attribute, got \"high\""
            )
        ) {
            try RecordCoding.encode(TextIntoInteger(id: 1, priority: "high"))
        }
    }

    @Test func nestedCodableTypesAreRejected() {
        let nested = FetchKitError.recordMapping(
            entity: "WithNested",
            detail: "'point' is a nested Codable type; a record's properties must be attribute values")
        #expect(throws: nested) {
            try RecordCoding.encode(WithNested(id: 1, point: .init(x: 1, y: 2)))
        }
        #expect(throws: nested) {
            try RecordCoding.decode(WithNested.self, from: ["id": 1, "point": "1,2"] as Row)
        }
        let list = FetchKitError.recordMapping(
            entity: "WithList",
            detail: "'tags' is a nested Codable type; a record's properties must be attribute values")
        #expect(throws: list) {
            try RecordCoding.encode(WithList(id: 1, tags: ["a"]))
        }
        #expect(throws: list) {
            try RecordCoding.encode(WithList(id: 1, tags: []))
        }
        #expect(throws: list) {
            try RecordCoding.decode(WithList.self, from: ["id": 1, "tags": "a"] as Row)
        }
    }

    @Test func codingKeysRenameAttributes() throws {
        let record = Renamed(id: 4, name: "Renamed title", isDone: true)
        let row = try RecordCoding.encode(record)
        #expect(row == ["id": 4, "title": "Renamed title", "done": true])
        #expect(try RecordCoding.decode(Renamed.self, from: row) == record)
        #expect(Renamed.attributeName(forProperty: "isDone") == "done")
        #expect(Fixtures.TodoRecord.attributeName(forProperty: "priority") == "priority")
    }

    @Test func reusedDecoderFollowsChangingLayouts() throws {
        let decoder = RecordDecoder(Fixtures.TodoRecord.self)
        let first: Row = ["id": 1, "title": "a", "priority": 1, "done": false, "notes": "n"]
        let reordered: Row = ["notes": .null, "done": true, "priority": 9, "title": "b", "id": 2]
        let fewer: Row = ["title": "c", "id": 3, "priority": 0, "done": false]
        for _ in 0..<2 {
            #expect(try decoder.decode(from: first) == .init(id: 1, title: "a", notes: "n", priority: 1))
            #expect(try decoder.decode(from: reordered) == .init(id: 2, title: "b", priority: 9, done: true))
            #expect(try decoder.decode(from: fewer) == .init(id: 3, title: "c"))
        }
    }

    @Test func recordsThatAskForDifferentKeysPerRowDecodeEveryRow() throws {
        let decoder = RecordDecoder(Branching.self)
        let records = [
            Branching(id: 1, number: 5), Branching(id: 2, text: "five"), Branching(id: 3, number: 6),
            Branching(id: 4, text: "six"), Branching(id: 5, text: "seven"), Branching(id: 6, number: 7)
        ]
        let rows = try sharingOneLayout(records.map { try RecordCoding.encode($0) })
        for _ in 0..<2 {
            for (row, record) in zip(rows, records) {
                #expect(try decoder.decode(from: row) == record)
                #expect(try RecordCoding.decode(Branching.self, from: row) == record)
            }
        }
        let withoutText: Row = ["id": 7, "kind": "text", "number": .null]
        let decoded = try decoder.decode(from: withoutText)
        #expect(decoded.id == 7 && decoded.kind == "text" && decoded.number == nil && decoded.text == nil)
    }

    @Test func recordsThatSwallowErrorsStillDecodeEveryRow() throws {
        let decoder = RecordDecoder(Lenient.self)
        let records = [
            Lenient(id: 1, kind: "number", number: 4, text: "four"),
            Lenient(id: 2, kind: "text", number: nil, text: "t"),
            Lenient(id: 3, kind: "number", number: 5, text: nil),
            Lenient(id: 4, kind: "text", number: nil, text: "u")
        ]
        let rows = try sharingOneLayout(records.map { try RecordCoding.encode($0) })
        for (row, record) in zip(rows + rows, records + records) {
            #expect(try decoder.decode(from: row) == record)
        }
    }

    @Test func allKeysFollowsTheLayout() throws {
        let decoder = RecordDecoder(Inventory.self)
        let both: Row = ["id": 1, "a": 1, "b": 2]
        let onlyB: Row = ["id": 2, "b": 2]
        for _ in 0..<2 {
            #expect(try decoder.decode(from: both).present == ["a", "b", "id"])
            #expect(try decoder.decode(from: both).present == ["a", "b", "id"])
            #expect(try decoder.decode(from: onlyB).present == ["b", "id"])
            #expect(try RecordCoding.decode(Inventory.self, from: onlyB).present == ["b", "id"])
        }
    }

    @Test func staticDecodeFollowsReadersWithoutLayoutIdentity() throws {
        let todo = try #require(Fixtures.sampleTodos.first)
        let row = try RecordCoding.encode(todo)
        let forward = row.names
        let backward = Array(forward.reversed())
        for names in [forward, backward, forward] {
            let reader = ArrayReader(names: names, values: names.map { row[$0] ?? .null })
            #expect(try RecordCoding.decode(Fixtures.TodoRecord.self, from: reader) == todo)
        }
    }

    @Test func freshLayoutsNeverReuseAStalePlan() throws {
        let decoder = RecordDecoder(Fixtures.TodoRecord.self)
        for index in 0..<200 {
            var names = ["id", "title", "priority", "done"]
            if index.isMultiple(of: 2) { names.reverse() }
            let values: [String: Value] = [
                "id": .integer(Int64(index)), "title": .text("t\(index)"), "priority": 7, "done": true
            ]
            let row = Row(layout: RowLayout(names: names), values: names.map { values[$0] ?? .null })
            let expected = Fixtures.TodoRecord(id: Int64(index), title: "t\(index)", priority: 7, done: true)
            #expect(try decoder.decode(from: row) == expected)
        }
    }

    @Test func readersWithoutLayoutIdentityDecode() throws {
        let decoder = RecordDecoder(Fixtures.TodoRecord.self)
        let names = ["id", "title", "notes", "priority", "ordering", "done", "due", "attachment", "categoryID"]
        for todo in Fixtures.sampleTodos {
            let row = try RecordCoding.encode(todo)
            let reader = ArrayReader(names: names, values: names.map { row[$0] ?? .null })
            #expect(try decoder.decode(from: reader) == todo)
        }
    }
}
