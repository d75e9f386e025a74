/// A results part's shown snapshot, whatever its object type.
protocol CompositeWindow: Sendable {
    /// The object at `path`, or `nil` when out of range.
    func anyObject(at path: RowPath) -> (any Sendable)?
}

extension ResultsSnapshot: CompositeWindow {
    func anyObject(at path: RowPath) -> (any Sendable)? { object(at: path) }
}
