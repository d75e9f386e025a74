/// One section of a composite controller.
public struct CompositeSection: Sendable, Hashable {
    /// The section's name.
    public let name: String
    /// How many rows it shows.
    public let count: Int
    /// The index of the part it belongs to.
    public let part: Int
}
