import FetchKit
import Foundation

/// Rows of one table read from JSON Lines: each line a JSON object by column name, each value converted to its
/// column's type.
struct JSONLinesImport {
    let table: Entity

    /// A JSON value as a line holds it.
    private enum JSONValue: Decodable {
        case null
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case text(String)
        case other(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // Each `try?` asks whether the value is of one JSON type; a mismatch is the answer "no", not an error
            // (an array or an object, matching none, becomes `.other` and is refused with its line).
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else if let double = try? container.decode(Double.self) {
                self = .double(double)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .other("an array or an object")
            }
        }

        /// The value as an error message shows it.
        var shown: String {
            switch self {
            case .null: "null"
            case .bool(let bool): "\(bool)"
            case .integer(let integer): "\(integer)"
            case .double(let double): "\(double)"
            case .text(let text): "\"\(TerminalText.safe(String(text.prefix(40))))\""
            case .other(let what): what
            }
        }
    }

    /// The rows of `data` with their line numbers (from 1), in order; `progress` hears how many lines were read,
    /// now and then.
    ///
    /// - Throws: ``ImportFailure`` for the first line that is not a JSON object, names a column the table does not
    ///   have, or holds a value its column's type cannot take.
    func rows(in data: Data, progress: (Int) -> Void) throws -> [(line: Int, row: Row)] {
        var types: [String: AttributeType] = [table.primaryKey.name: table.primaryKey.type]
        for attribute in table.attributes { types[attribute.name] = attribute.type }
        let decoder = JSONDecoder()
        var rows: [(line: Int, row: Row)] = []
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if number % 10_000 == 0 { progress(number) }
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != 9 }) else {
                continue
            }
            let object: [String: JSONValue]
            do {
                object = try decoder.decode([String: JSONValue].self, from: Data(line))
            } catch {
                throw ImportFailure(line: number, reason: "not a JSON object")
            }
            var pairs: [(String, Value)] = []
            for (column, json) in object.sorted(by: { $0.key < $1.key }) {
                guard let type = types[column] else {
                    throw ImportFailure(
                        line: number, reason: "\(table.table) has no column '\(TerminalText.safe(column))'")
                }
                guard let value = Self.value(json, as: type) else {
                    throw ImportFailure(
                        line: number, reason: "'\(TerminalText.safe(column))' needs \(type), which \(json.shown) is not"
                    )
                }
                pairs.append((column, value))
            }
            rows.append((number, Row(pairs)))
        }
        progress(number)
        return rows
    }

    /// `json` as a value of `type`, or `nil` when it does not fit.
    private static func value(_ json: JSONValue, as type: AttributeType) -> Value? {
        let value: Value
        switch (json, type) {
        case (.null, _): return .null
        // A database without a boolean type (SQLite) describes the column as an integer: 0 and 1.
        case (.bool(let bool), .integer): value = .integer(bool ? 1 : 0)
        case (.bool(let bool), _): value = .bool(bool)
        case (.integer(let integer), .date): value = .date(Date(timeIntervalSince1970: TimeInterval(integer)))
        case (.double(let double), .date): value = .date(Date(timeIntervalSince1970: double))
        case (.integer(let integer), _): value = .integer(integer)
        case (.double(let double), _): value = .double(double)
        case (.text(let text), .date):
            // Text that is no ISO 8601 date does not fit: the caller refuses the line, naming the column and value.
            guard let date = try? Date(text, strategy: .iso8601) else { return nil }
            value = .date(date)
        case (.text(let text), .binary):
            guard let bytes = Data(base64Encoded: text) else { return nil }
            value = .blob(bytes)
        case (.text(let text), _): value = .text(text)
        case (.other, _): return nil
        }
        return type.coerce(value)
    }
}
