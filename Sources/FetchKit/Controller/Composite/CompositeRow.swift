/// One row of a ``CompositeResultsController``, as its delegate receives it: the part it belongs to and its
/// object.
///
/// ```swift
/// func controller(_ controller: CompositeResultsController, didChange row: CompositeRow, at rowPath: RowPath?,
///                 for type: ResultsChangeType, newRowPath: RowPath?) {
///     if let todo = row.object(in: todosPart) { … } else if let title = row.row(in: menuPart) { … }
/// }
/// ```
public struct CompositeRow: Sendable {
    /// The index of the part the row belongs to.
    public let part: Int
    /// The row's object: a results part's object, or a fixed part's row (a `String`).
    public let value: any Sendable

    /// The row's object when the row belongs to `part`; `nil` otherwise.
    public func object<Object>(in part: ResultsPart<Object>) -> Object? {
        part.index == self.part ? value as? Object : nil
    }

    /// The fixed row when the row belongs to `part`; `nil` otherwise.
    public func row(in part: FixedPart) -> String? {
        part.index == self.part ? value as? String : nil
    }
}
