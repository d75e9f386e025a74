/// A row being decoded, read by column position.
///
/// ``Row`` conforms; backends conform their statement cursors so records decode straight from the
/// database without an intermediate `Row`.
///
/// ```swift
/// let decoder = RecordDecoder(Task.self)
/// while try cursor.step() {
///     tasks.append(try decoder.decode(from: cursor))
/// }
/// ```
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
}

extension ColumnReader {
    /// No layout object: one decoder sees one layout.
    public var columnLayout: AnyObject? { nil }
}

extension Row: ColumnReader {
    /// The position of the column named `attribute`, or nil.
    ///
    /// - Complexity: O(1).
    public func columnIndex(of attribute: String) -> Int? { layout.index(of: attribute) }

    /// The value at `index`.
    public func value(at index: Int) -> Value { values[index] }

    /// The row's shared layout: rows fetched together decode with one column plan.
    public var columnLayout: AnyObject? { layout }
}
