import FetchKit

/// A row image from the log as FetchKit's values, by column name: what an insert or an update wrote, or the
/// key a delete names.
///
/// The feed asks for binary values (`binary 'true'`), which are PostgreSQL's wire format, so they read exactly
/// as a fetch reads them. A `numeric` without digits after the point reads as its exact integer (a fetch reads
/// such a column through `CAST(… AS BIGINT)`), and a value of a type whose OID is the database's own (an enum,
/// `citext`: their binary form is their text, which is what a fetch's cast to text reads) as its text. A TOASTed
/// value an update did not change is not in the log, and a value that does not read is not guessed: their
/// columns are in ``missing``, and whoever needs the whole row re-reads it.
struct LogRow: Equatable, Sendable {
    /// The values the image carries (SQL NULL as `.null`).
    var values: [String: Value]
    /// The columns whose values the image lacks: unchanged TOASTed values, and values FetchKit could not read.
    var missing: Set<String>
}

extension PgOutputMessage.Relation {
    /// The values of `image`, a row of this table as the log carries it.
    ///
    /// A value FetchKit cannot read (a type it does not know, a value of the wrong size) leaves its column
    /// ``LogRow/missing``: the row is then re-read rather than guessed.
    ///
    /// - Throws: ``FetchKitError/Code/inconsistency`` when the image and the table disagree on the number of
    ///   columns.
    func row(_ image: [PgOutputMessage.Value]) throws -> LogRow {
        guard image.count == columns.count else {
            throw FetchKitError.inconsistency(
                "the log's row of \(namespace).\(name) has \(image.count) columns; its relation has \(columns.count)")
        }
        var row = LogRow(values: [:], missing: [])
        row.values.reserveCapacity(columns.count)
        for (column, value) in zip(columns, image) {
            switch value {
            case .null:
                row.values[column.name] = .null
            case .unchanged:
                row.missing.insert(column.name)
            case .binary(let bytes):
                // A value that does not decode is not lost: its column is missing, and the row is re-read.
                let value = bytes.withUnsafeBytes { buffer in Self.decode(buffer, column: column, table: name) }
                if let value { row.values[column.name] = value } else { row.missing.insert(column.name) }
            case .text(let text):
                // A type without a binary send function: only text types are read from their text.
                if Self.textTypes.contains(column.typeID) {
                    row.values[column.name] = .text(text)
                } else {
                    row.missing.insert(column.name)
                }
            }
        }
        return row
    }

    /// A binary value of `column` as a fetch reads it; `nil` when it does not read.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, column: PgOutputMessage.Relation.Column, table: String
    ) -> Value? {
        if column.typeID == PostgresBinary.TypeID.numeric, let integer = PostgresBinary.exactInteger(numeric: bytes) {
            return .integer(integer)
        }
        if column.typeID >= firstDatabaseOID {
            // An enum's or citext's: the text itself (no other type of a database's own maps to an attribute).
            return String(validating: bytes, as: UTF8.self).map(Value.text)
        }
        // Its error is not lost: `nil` leaves the column missing, and whoever needs the row re-reads it.
        return try? PostgresBinary.decode(bytes, type: column.typeID, column: "\(table).\(column.name)")
    }

    /// The first OID a database gives its own objects (`FirstNormalObjectId`): the built-in types are below it.
    private static let firstDatabaseOID: UInt32 = 16_384

    /// The types whose text is their value.
    private static let textTypes: Set<UInt32> = [
        PostgresBinary.TypeID.text, PostgresBinary.TypeID.varchar, PostgresBinary.TypeID.bpchar,
        PostgresBinary.TypeID.name, PostgresBinary.TypeID.char, PostgresBinary.TypeID.json
    ]
}
