/// A conformance check that failed: what was expected and what the store did.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What the store did, against what the check expected.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }

    /// Throws a failure saying `message` unless `condition` holds.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message()) }
    }
}
