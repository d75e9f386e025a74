/// The column names shared by the rows of one fetch.
public final class RowLayout: Sendable {
    /// The column names, in order.
    public let names: [String]
    private let indexByName: [String: Int]

    /// Creates a layout; names must be unique.
    public init(names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
        self.indexByName = index
    }

    /// The position of `name`, if present.
    public func index(of name: String) -> Int? { indexByName[name] }
}
