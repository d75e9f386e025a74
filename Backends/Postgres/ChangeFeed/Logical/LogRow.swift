import FetchKit

/// A row image from the log as FetchKit's values, by column name: what an insert or an update wrote, or the
/// key a delete names.
///
/// The feed asks for binary values (`binary 'true'`), which are PostgreSQL's wire format, so they read exactly
/// as a fetch reads them. A TOASTed value an update did not change is not in the log: its column is in
/// ``unchanged``, and whoever needs it re-reads the row.
struct LogRow: Equatable, Sendable {
    /// The values the image carries (SQL NULL as `.null`).
    var values: [String: Value]
    /// The columns whose values the log does not carry (unchanged TOASTed values).
    var unchanged: Set<String>
}

extension PgOutputMessage.Relation {
    /// The values of `image`, a row of this table as the log carries it.
    ///
    /// - Throws: ``FetchKitError/Code/inconsistency`` when the image and the table disagree on the number of
    ///   columns; ``FetchKitError/Code/unsupported`` for a column type FetchKit does not read (naming the
    ///   column and the type).
    func row(_ image: [PgOutputMessage.Value]) throws -> LogRow {
        guard image.count == columns.count else {
            throw FetchKitError.inconsistency(
                "the log's row of \(namespace).\(name) has \(image.count) columns; its relation has \(columns.count)")
        }
        var row = LogRow(values: [:], unchanged: [])
        row.values.reserveCapacity(columns.count)
        for (column, value) in zip(columns, image) {
            switch value {
            case .null:
                row.values[column.name] = .null
            case .unchanged:
                row.unchanged.insert(column.name)
            case .binary(let bytes):
                row.values[column.name] = try bytes.withUnsafeBytes { buffer in
                    try PostgresBinary.decode(buffer, type: column.typeID, column: "\(name).\(column.name)")
                }
            case .text(let text):
                // A type without a binary send function: only text types are read from their text.
                guard Self.textTypes.contains(column.typeID) else {
                    throw FetchKitError.unsupported(
                        "column '\(name).\(column.name)' has PostgreSQL type oid \(column.typeID), which the log "
                            + "sent as text and FetchKit does not read")
                }
                row.values[column.name] = .text(text)
            }
        }
        return row
    }

    /// The types whose text is their value.
    private static let textTypes: Set<UInt32> = [
        PostgresBinary.TypeID.text, PostgresBinary.TypeID.varchar, PostgresBinary.TypeID.bpchar,
        PostgresBinary.TypeID.name, PostgresBinary.TypeID.char, PostgresBinary.TypeID.json
    ]
}
