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
    /// ``RecordDecoder`` remembers the column of each key and forgets it when this identity changes.
    /// A reader that returns nil (the default) promises that one decoder only ever sees readers of
    /// one layout, as when a decoder is created per fetch and fed the rows of one statement.
    var columnLayoutIdentity: ObjectIdentifier? { get }
}

extension ColumnReader {
    /// No identity: one decoder sees one layout.
    public var columnLayoutIdentity: ObjectIdentifier? { nil }
}

extension Row: ColumnReader {
    /// The position of the column named `attribute`, or nil.
    ///
    /// - Complexity: O(1).
    public func columnIndex(of attribute: String) -> Int? { layout.index(of: attribute) }

    /// The value at `index`.
    public func value(at index: Int) -> Value { values[index] }

    /// The row's shared layout: rows fetched together decode with one column cache.
    public var columnLayoutIdentity: ObjectIdentifier? { ObjectIdentifier(layout) }
}
