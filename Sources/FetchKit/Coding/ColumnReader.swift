import Foundation

/// A row being decoded, read by column position.
///
/// ``RowColumns`` reads a ``Row``; backends conform their statement cursors so records decode straight from the
/// database without an intermediate `Row`.
///
/// ```swift
/// let decoder = RecordDecoder(Todo.self)
/// while try cursor.step() {
///     todos.append(try decoder.decode(from: cursor))
/// }
/// ```
///
/// Only ``columnIndex(of:)`` and ``value(at:)`` are required. A reader over a database may also
/// implement the typed reads (``integer(at:)`` …), which let decoders skip building a ``Value``: each
/// returns the payload of ``value(at:)`` when that has its case (`.integer`, `.double`, …), and `nil`
/// otherwise. Decoders read a property's type first and fall back to ``value(at:)`` on `nil`, so a
/// typed read must never return what ``value(at:)`` would not.
public protocol ColumnReader {
    /// The position of the column holding `attribute`, or nil.
    func columnIndex(of attribute: String) -> Int?
    /// The value at `index`, already in the attribute's canonical case (.bool for bool attributes, .date for dates).
    func value(at index: Int) -> Value
    /// An object shared by every reader with the same columns in the same order, or nil.
    ///
    /// Decoders remember the column of each of a record's keys per layout (holding the object, so its
    /// identity cannot be reused): return an immutable object, such as the ``RowLayout`` of fetched rows
    /// or a prepared statement whose SQL never changes. With nil (the default), a ``RecordDecoder``
    /// assumes it only ever sees readers of one layout, as when it is created per fetch and fed the
    /// rows of one statement; ``RecordCoding/decode(_:from:)`` then finds every column by name.
    var columnLayout: AnyObject? { get }

    /// The integer at `index` when ``value(at:)`` is `.integer`, else nil.
    func integer(at index: Int) -> Int64?
    /// The number at `index` when ``value(at:)`` is `.double`, else nil.
    func double(at index: Int) -> Double?
    /// The text at `index` when ``value(at:)`` is `.text`, else nil.
    func text(at index: Int) -> String?
    /// The Boolean at `index` when ``value(at:)`` is `.bool`, else nil.
    func bool(at index: Int) -> Bool?
    /// The date at `index` when ``value(at:)`` is `.date`, else nil.
    func date(at index: Int) -> Date?
    /// The bytes at `index` when ``value(at:)`` is `.blob`, else nil.
    func blob(at index: Int) -> Data?
}

extension ColumnReader {
    /// No layout object: one decoder sees one layout.
    public var columnLayout: AnyObject? { nil }

    /// Reads ``value(at:)``.
    public func integer(at index: Int) -> Int64? {
        if case .integer(let integer) = value(at: index) { return integer }
        return nil
    }

    /// Reads ``value(at:)``.
    public func double(at index: Int) -> Double? {
        if case .double(let double) = value(at: index) { return double }
        return nil
    }

    /// Reads ``value(at:)``.
    public func text(at index: Int) -> String? {
        if case .text(let text) = value(at: index) { return text }
        return nil
    }

    /// Reads ``value(at:)``.
    public func bool(at index: Int) -> Bool? {
        if case .bool(let bool) = value(at: index) { return bool }
        return nil
    }

    /// Reads ``value(at:)``.
    public func date(at index: Int) -> Date? {
        if case .date(let date) = value(at: index) { return date }
        return nil
    }

    /// Reads ``value(at:)``.
    public func blob(at index: Int) -> Data? {
        if case .blob(let data) = value(at: index) { return data }
        return nil
    }
}

/// A ``Row`` read by column position: what decoders read a fetched row through.
public struct RowColumns: ColumnReader {
    /// The row read.
    public let row: Row

    /// A reader over `row`.
    public init(_ row: Row) { self.row = row }

    /// The position of the column named `attribute`, or nil.
    ///
    /// - Complexity: O(1).
    public func columnIndex(of attribute: String) -> Int? { row.layout.index(of: attribute) }

    /// The value at `index`.
    public func value(at index: Int) -> Value { row.value(at: index) }

    /// The row's shared layout: rows fetched together decode with one column plan.
    public var columnLayout: AnyObject? { row.layout }
}

extension RecordCoding {
    /// Decodes `type` from `row`, read through ``RowColumns``.
    public static func decode<R: Record>(_ type: R.Type, from row: Row) throws -> R {
        try decode(type, from: RowColumns(row))
    }
}

extension RecordDecoder {
    /// Decodes one record from `row`.
    public func decode(from row: Row) throws -> R {
        try decode(from: RowColumns(row))
    }
}
