import FetchKit
import Foundation

// The fixtures of the value checks: a table with a column of every attribute type, and records that read it
// as every Swift type FetchKit decodes (Codable and RowDecodable). Internal: backends' own tests reach them
// through `@testable import FetchKitTesting`.

extension StoreConformance {
    /// The schema of the ``AllTypes`` table.
    static let allTypesSchema: Schema = {
        do {
            return try Schema([AllTypes.entity])
        } catch {
            preconditionFailure("the all-types schema is inconsistent: \(error)")
        }
    }()
}

extension StoreConformance {
    /// A record with a property of every supported type, required and optional.
    struct AllTypes: Record, Equatable {
        enum Mood: String, Codable, Equatable { case calm, busy }

        static let entity = Entity(
            "AllTypes", table: "all_types",
            attributes: [
                Attribute("int", .integer), Attribute("int8", .integer), Attribute("int16", .integer),
                Attribute("int32", .integer), Attribute("int64", .integer), Attribute("uint", .integer),
                Attribute("uint8", .integer), Attribute("uint16", .integer), Attribute("uint32", .integer),
                Attribute("uint64", .integer), Attribute("double", .double), Attribute("float", .double),
                Attribute("text", .text), Attribute("flag", .bool), Attribute("when", .date),
                Attribute("bytes", .binary),
                Attribute("uuid", .text), Attribute("mood", .text),
                Attribute("maybeInt", .integer, optional: true), Attribute("maybeInt8", .integer, optional: true),
                Attribute("maybeInt32", .integer, optional: true), Attribute("maybeInt64", .integer, optional: true),
                Attribute("maybeUInt64", .integer, optional: true), Attribute("maybeDouble", .double, optional: true),
                Attribute("maybeFloat", .double, optional: true), Attribute("maybeText", .text, optional: true),
                Attribute("maybeFlag", .bool, optional: true), Attribute("maybeWhen", .date, optional: true),
                Attribute("maybeBytes", .binary, optional: true), Attribute("maybeUUID", .text, optional: true),
                Attribute("maybeMood", .text, optional: true)
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
    struct RowTypes: RowDecodable, Equatable {
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
    struct RequiredText: Record {
        static let entity = AllTypes.entity
        var id: Int64?
        var maybeText: String
    }

    /// Reads a property `AllTypes` has no attribute for.
    struct Extra: Record {
        static let entity = AllTypes.entity
        var id: Int64?
        var nope: Int
    }
}
