/// The position of a row in sectioned results: a section index and a row index within it.
///
/// FetchKit's counterpart of UIKit's `IndexPath(row:section:)`, without the clash with Foundation's `IndexPath`.
public struct RowPath: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The row's index within its section.
    public var row: Int

    /// Creates a path.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`.
    public var description: String { "[\(section), \(row)]" }
}
