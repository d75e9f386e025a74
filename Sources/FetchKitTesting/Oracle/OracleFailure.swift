/// A broken invariant of live results, with what was expected and what was found.
public struct OracleFailure: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String
    /// Creates a failure.
    public init(_ description: String) { self.description = description }
}
