import FetchKit
import Foundation

/// A value's tag in the archive: the case, then its payload.
private enum ValueTag: UInt8 {
    case null, integer, double, text, bool, date, blob
}

extension ArchiveWriter {
    /// A value exactly: a double by its bit pattern (`-0.0`, the infinities), a date by the bit pattern of its
    /// time interval (so it comes back the very same `Date`, to the microsecond and below), text as its UTF-8
    /// bytes. Equal bytes are equal values (``Value``'s equality compares no more than this).
    mutating func value(_ value: Value) {
        switch value {
        case .null: byte(ValueTag.null.rawValue)
        case .integer(let integer):
            byte(ValueTag.integer.rawValue)
            fixed(integer)
        case .double(let double):
            byte(ValueTag.double.rawValue)
            fixed(double.bitPattern)
        case .text(let text):
            byte(ValueTag.text.rawValue)
            string(text)
        case .bool(let bool):
            byte(ValueTag.bool.rawValue)
            self.bool(bool)
        case .date(let date):
            byte(ValueTag.date.rawValue)
            fixed(date.timeIntervalSinceReferenceDate.bitPattern)
        case .blob(let data):
            byte(ValueTag.blob.rawValue)
            bytes(data)
        }
    }

    mutating func values(_ values: [Value]) {
        count(values.count)
        for value in values { self.value(value) }
    }
}

extension ArchiveReader {
    /// A value ``ArchiveWriter/value(_:)`` wrote.
    mutating func value() throws(ResumeArchiveError) -> Value {
        guard let tag = ValueTag(rawValue: try byte()) else { throw .invalid("value") }
        switch tag {
        case .null: return .null
        case .integer: return .integer(try fixedInt64())
        case .double: return .double(Double(bitPattern: try fixed()))
        case .text: return .text(try string())
        case .bool: return .bool(try bool())
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try fixed())))
        case .blob: return .blob(Data(try bytes()))
        }
    }

    mutating func values() throws(ResumeArchiveError) -> [Value] {
        var values: [Value] = []
        for _ in 0..<(try count()) { values.append(try value()) }
        return values
    }
}
