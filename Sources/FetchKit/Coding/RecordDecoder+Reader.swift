import Foundation

/// The current row of a ``RecordDecodingState``, behind a class so the state can call it without
/// copying it.
///
/// The state reaches the box through `Unmanaged` (it also holds it strongly), so reading a column
/// costs one virtual call: no retain, release or existential copy, which a stored `any ColumnReader`
/// would cost on every read. The base class is the empty row (no columns), the state's row between
/// decodes.
@usableFromInline
class ReaderBox {
    @usableFromInline
    init() {}

    func columnIndex(of attribute: String) -> Int? { nil }
    func value(at index: Int) -> Value { .null }
    func integer(at index: Int) -> Int64? { nil }
    func double(at index: Int) -> Double? { nil }
    func text(at index: Int) -> String? { nil }
    func bool(at index: Int) -> Bool? { nil }
    func date(at index: Int) -> Date? { nil }
    func blob(at index: Int) -> Data? { nil }
}

/// A box for one reader; a class instance is boxed once for all the rows it reads.
///
/// Usable from inlinable code because it is generic over ``ColumnReader`` and created by the inlinable decoders.
@usableFromInline
final class TypedReaderBox<Reader: ColumnReader>: ReaderBox {
    let reader: Reader

    @usableFromInline
    init(_ reader: Reader) { self.reader = reader }

    override func columnIndex(of attribute: String) -> Int? { reader.columnIndex(of: attribute) }
    override func value(at index: Int) -> Value { reader.value(at: index) }
    override func integer(at index: Int) -> Int64? { reader.integer(at: index) }
    override func double(at index: Int) -> Double? { reader.double(at: index) }
    override func text(at index: Int) -> String? { reader.text(at: index) }
    override func bool(at index: Int) -> Bool? { reader.bool(at: index) }
    override func date(at index: Int) -> Date? { reader.date(at: index) }
    override func blob(at index: Int) -> Data? { reader.blob(at: index) }
}

/// The box for ``Row`` readers: one box per state, whose row is replaced for each decode.
@usableFromInline
final class RowBox: ReaderBox {
    @usableFromInline var row = Row(layout: RowLayout(names: []), values: [])

    override func columnIndex(of attribute: String) -> Int? { row.layout.index(of: attribute) }
    override func value(at index: Int) -> Value { row.value(at: index) }

    override func integer(at index: Int) -> Int64? {
        if case .integer(let integer) = row.value(at: index) { return integer }
        return nil
    }

    override func double(at index: Int) -> Double? {
        if case .double(let double) = row.value(at: index) { return double }
        return nil
    }

    override func text(at index: Int) -> String? {
        if case .text(let text) = row.value(at: index) { return text }
        return nil
    }

    override func bool(at index: Int) -> Bool? {
        if case .bool(let bool) = row.value(at: index) { return bool }
        return nil
    }

    override func date(at index: Int) -> Date? {
        if case .date(let date) = row.value(at: index) { return date }
        return nil
    }

    override func blob(at index: Int) -> Data? {
        if case .blob(let data) = row.value(at: index) { return data }
        return nil
    }
}
