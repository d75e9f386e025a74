import FetchKit
import Foundation

/// The JSON of the session protocol: sorted keys, and dates as ISO 8601 strings in UTC with microseconds — as
/// FetchKit's rows encode them (`Value`), so a record's `Date` and a row's date read the same in a client.
enum SessionJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            try Value.date(date).encode(to: encoder)
        }
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    static func decoder() -> JSONDecoder { JSONDecoder() }

    /// `value` as one line of JSON text.
    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
