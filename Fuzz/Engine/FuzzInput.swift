import FetchKit

/// One input of a fuzzing run: a format string and the arguments passed with it.
public struct FuzzInput: Sendable, CustomStringConvertible {
    /// Where an input came from.
    public enum Origin: String, Sendable, CaseIterable {
        /// Written by the grammar of the format language.
        case grammar
        /// A seed or grammar string with bytes or tokens changed.
        case mutation
        /// A very long or deeply nested string, for the time bound.
        case stress
    }

    /// The format string.
    public var format: String
    /// The arguments for its `%@`, `%K`, `%d`... in order.
    public var arguments: [any FormatArgument]
    /// How it was made.
    public var origin: Origin

    /// Creates an input.
    public init(format: String, arguments: [any FormatArgument] = [], origin: Origin = .grammar) {
        self.format = format
        self.arguments = arguments
        self.origin = origin
    }

    /// The format string as a Swift literal, then the arguments, shortened to `limit` characters each.
    public func excerpt(limit: Int = 300) -> String {
        var text = Self.shortened(String(reflecting: format), limit: limit)
        if !arguments.isEmpty {
            let listed = arguments.map { String(reflecting: $0) }.joined(separator: ", ")
            text += " with [" + Self.shortened(listed, limit: limit) + "]"
        }
        return text
    }

    public var description: String { excerpt() }

    private static func shortened(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes)"
    }
}
