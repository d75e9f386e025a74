import CLibPQ
import FetchKit
import Foundation

/// Values in PostgreSQL's binary wire format, both ways: parameters are sent typed and binary, results are
/// read binary, so integers, doubles, timestamps and bytes cross exactly, with no text parsing.
enum PostgresBinary {
    /// Type OIDs FetchKit sends and reads (`pg_type.oid`).
    enum TypeID {
        static let bool: Oid = 16
        static let bytea: Oid = 17
        static let char: Oid = 18
        static let name: Oid = 19
        static let int8: Oid = 20
        static let int2: Oid = 21
        static let int4: Oid = 23
        static let text: Oid = 25
        static let json: Oid = 114
        static let oid: Oid = 26
        static let float4: Oid = 700
        static let float8: Oid = 701
        static let unknown: Oid = 705
        static let bpchar: Oid = 1042
        static let varchar: Oid = 1043
        static let date: Oid = 1082
        static let timestamp: Oid = 1114
        static let timestamptz: Oid = 1184
        static let numeric: Oid = 1700
        static let uuid: Oid = 2950
        static let jsonb: Oid = 3802
    }

    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's timestamp epoch.
    static let epochOffset: Int64 = 946_684_800_000_000

    /// The type and bytes of `value` as a parameter (`nil` bytes: SQL NULL, whose type the server infers).
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a date outside PostgreSQL's range or text containing NUL.
    static func encode(_ value: Value, parameter index: Int) throws -> (type: Oid, bytes: [UInt8]?) {
        guard let type = typeID(of: value) else { return (0, nil) }
        var bytes: [UInt8] = []
        try append(value, to: &bytes, at: "parameter \(index)")
        return (type, bytes)
    }

    /// The type a value is sent as (`nil` for SQL NULL, whose type the server infers).
    static func typeID(of value: Value) -> Oid? {
        switch value {
        case .null: return nil
        case .integer: return TypeID.int8
        case .double: return TypeID.float8
        case .text: return TypeID.text
        case .bool: return TypeID.bool
        case .date: return TypeID.timestamptz
        case .blob: return TypeID.bytea
        }
    }

    /// Appends the binary form of `value` (of the type ``typeID(of:)`` names; nothing for SQL NULL) to
    /// `buffer`. `position` names the value in an error.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a date outside PostgreSQL's range or text containing NUL.
    static func append(_ value: Value, to buffer: inout [UInt8], at position: @autoclosure () -> String) throws {
        switch value {
        case .null:
            return
        case .integer(let integer):
            appendBigEndian(UInt64(bitPattern: integer), to: &buffer)
        case .double(let double):
            appendBigEndian(double.bitPattern, to: &buffer)
        case .text(let text):
            // PostgreSQL refuses NUL in text, with codes that differ by path: refused here, as SQLite's binding does.
            guard !text.utf8.contains(0) else {
                throw FetchKitError.invalidValue("text containing NUL cannot be stored (\(position()))")
            }
            buffer.append(contentsOf: text.utf8)
        case .bool(let bool):
            buffer.append(bool ? 1 : 0)
        case .date(let date):
            let seconds = date.timeIntervalSince1970
            guard seconds.isFinite, abs(seconds) < 9_000_000_000_000 else {
                throw FetchKitError.invalidValue("date \(seconds) s from 1970 is out of range (\(position()))")
            }
            appendBigEndian(UInt64(bitPattern: date.microsecondsSince1970 - epochOffset), to: &buffer)
        case .blob(let data):
            buffer.append(contentsOf: data)
        }
    }

    /// Appends the 8 bytes of `value`, most significant first.
    static func appendBigEndian(_ value: UInt64, to buffer: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// The value of `bytes`, a binary column of type `type` named `column`.
    ///
    /// `numeric` reads as the nearest double; `date` as midnight UTC; `json` and `jsonb` as their text.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` for a type FetchKit does not read (arrays, intervals, …).
    static func decode(_ bytes: UnsafeRawBufferPointer, type: Oid, column: @autoclosure () -> String) throws -> Value {
        switch type {
        case TypeID.bool:
            return .bool(bytes.first != 0)
        case TypeID.int8:
            return .integer(Int64(bitPattern: try integer(bytes, size: 8, column: column())))
        case TypeID.int4:
            return .integer(Int64(Int32(truncatingIfNeeded: try integer(bytes, size: 4, column: column()))))
        case TypeID.int2:
            return .integer(Int64(Int16(truncatingIfNeeded: try integer(bytes, size: 2, column: column()))))
        case TypeID.oid:
            return .integer(Int64(UInt32(truncatingIfNeeded: try integer(bytes, size: 4, column: column()))))
        case TypeID.float8:
            return .double(Double(bitPattern: try integer(bytes, size: 8, column: column())))
        case TypeID.float4:
            return .double(Double(Float(bitPattern: UInt32(try integer(bytes, size: 4, column: column())))))
        case TypeID.text, TypeID.varchar, TypeID.bpchar, TypeID.name, TypeID.char, TypeID.unknown, TypeID.json:
            return .text(String(decoding: bytes, as: UTF8.self))
        case TypeID.jsonb:
            // A version byte (1), then the text.
            return .text(String(decoding: bytes.dropFirst(), as: UTF8.self))
        case TypeID.date:
            let days = Int64(Int32(truncatingIfNeeded: try integer(bytes, size: 4, column: column())))
            return .date(Date(microsecondsSince1970: days * 86_400_000_000 + epochOffset))
        case TypeID.numeric:
            return try numeric(bytes, column: column())
        case TypeID.bytea:
            return .blob(Data(bytes))
        case TypeID.timestamptz, TypeID.timestamp:
            let micros = Int64(bitPattern: try integer(bytes, size: 8, column: column()))
            return .date(Date(microsecondsSince1970: micros + epochOffset))
        case TypeID.uuid:
            return .text(uuidText(bytes))
        default:
            throw FetchKitError.unsupported(
                "column \(SafeText.quoted(column())) has PostgreSQL type oid \(type), which FetchKit does not read")
        }
    }

    /// The big-endian unsigned integer of `size` bytes.
    private static func integer(
        _ bytes: UnsafeRawBufferPointer, size: Int, column: @autoclosure () -> String
    ) throws -> UInt64 {
        guard bytes.count == size else {
            throw FetchKitError.database(
                code: 0,
                message: "column \(SafeText.quoted(column())): \(bytes.count) bytes where \(size) were expected",
                sql: nil)
        }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A `numeric` (base-10000 digits with a weight, a sign and a display scale) as the nearest double.
    private static func numeric(_ bytes: UnsafeRawBufferPointer, column: String) throws -> Value {
        guard bytes.count >= 8 else {
            throw FetchKitError.database(
                code: 0, message: "column \(SafeText.quoted(column)): a truncated numeric", sql: nil)
        }
        func word(_ index: Int) -> Int { Int(UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1])) }
        let count = word(0)
        let weight = Int(Int16(truncatingIfNeeded: word(1)))
        let sign = word(2)
        switch sign {
        case 0xC000: return .double(.nan)
        case 0xD000: return .double(.infinity)
        case 0xF000: return .double(-.infinity)
        default: break
        }
        guard bytes.count == 8 + 2 * count else {
            throw FetchKitError.database(
                code: 0, message: "column \(SafeText.quoted(column)): a numeric of the wrong length", sql: nil)
        }
        // Digit i counts 10000^(weight - i): written out in decimal, then parsed (correctly rounded).
        var text = sign == 0x4000 ? "-0" : "0"
        for index in 0..<count { text += String(word(4 + index)).leftPadded(to: 4) }
        text += "e" + String(4 * (weight + 1 - count))
        return .double(Double(text) ?? 0)
    }

    /// A `numeric` without digits after the point as its exact integer; `nil` for any other (a fraction, NaN, an
    /// infinity, a value beyond `Int64`, a malformed one). A `numeric(p, 0)` column's values are read so, as a
    /// fetch reads them through `CAST(… AS BIGINT)`, where the nearest double would lose digits past 2⁵³.
    static func exactInteger(numeric bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count >= 8 else { return nil }
        func word(_ index: Int) -> Int { Int(UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1])) }
        let count = word(0)
        let weight = Int(Int16(truncatingIfNeeded: word(1)))
        let sign = word(2)
        guard bytes.count == 8 + 2 * count, sign == 0x0000 || sign == 0x4000, word(3) == 0 else { return nil }
        guard count > 0 else { return 0 }
        // Digit i counts 10000^(weight - i); a digit below 10000^0 would be a fraction.
        guard weight >= count - 1, weight < 5 else { return nil }
        var value: Int64 = 0
        for index in 0...weight {
            let digit = index < count ? Int64(word(4 + index)) : 0
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10_000)
            guard !overflow, digit < 10_000 else { return nil }
            let (sum, carry) =
                sign == 0x4000 ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            guard !carry else { return nil }
            value = sum
        }
        return value
    }

    /// A uuid's 16 bytes as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    private static func uuidText(_ bytes: UnsafeRawBufferPointer) -> String {
        let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
