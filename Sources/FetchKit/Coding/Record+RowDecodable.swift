/// A record that reads itself from a fetched row by attribute name: the fast alternative to its
/// `Decodable` conformance.
///
/// Every decoder of records uses `init(row:)` for a type that conforms (a store's fetch, a
/// ``RecordDecoder``, ``RecordCoding/decode(_:from:)``); `Encodable` still writes the record.
///
/// ```swift
/// struct Todo: RowDecodable {
///     static let entity = Entity("Todo", table: "todo", attributes: [
///         Attribute("title", .text), Attribute("notes", .text, optional: true),
///         Attribute("done", .bool, default: false),
///     ])
///     var id: Int64?
///     var title: String
///     var notes: String?
///     var done = false
///
///     init(row: borrowing RecordRow) throws {
///         id = try row["id"]
///         title = try row["title"]
///         notes = try row["notes"]
///         done = try row["done"]
///     }
/// }
/// ```
///
/// Reads resolve their columns through a plan the decoder learns from the first row (the order of
/// the reads, each attribute's column), so later rows read each column by position.
public protocol RowDecodable: Record {
    /// Reads the record from `row`, which is valid only during this call.
    ///
    /// - Throws: the ``FetchKitError/Code/recordMapping`` a read throws, or an error of
    ///   the record's own (reported as a record-mapping error).
    init(row: borrowing RecordRow) throws

    /// Decodes every row of a fetch: the default loop calls `init(row:)` for each, and is compiled for the
    /// conforming type. A type does not implement it.
    static func decodeAll(_ rows: inout RecordRows) throws -> [Self]
}
