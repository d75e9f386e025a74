import Foundation

/// An argument for a format string's `%@`, `%K`, `%d`, `%i`, `%ld` or `%f`.
///
/// Every ``ValueConvertible`` type is an argument (a single value), and so are arrays and sets of them
/// (a list, for `IN %@` or `BETWEEN %@`):
///
/// ```swift
/// let p = try FetchPredicate(format: "priority IN %@ AND title BEGINSWITH %@", [1, 2], "Write")
/// ```
public protocol FormatArgument: Sendable {
    /// What the argument stands for in a format string.
    var formatArgumentValue: FormatArgumentValue { get }
}

/// What a ``FormatArgument`` stands for: one value or a list of values.
public enum FormatArgumentValue: Sendable, Hashable {
    /// A single constant.
    case value(Value)
    /// A list of constants (an array or set argument).
    case list([Value])
}

extension FormatArgument where Self: ValueConvertible {
    /// The argument's database value.
    public var formatArgumentValue: FormatArgumentValue { .value(databaseValue) }
}

extension FormatArgument where Self: Sequence, Element: ValueConvertible {
    /// The elements' database values, in iteration order.
    public var formatArgumentValue: FormatArgumentValue { .list(map(\.databaseValue)) }
}

extension Value: FormatArgument {}
extension Int: FormatArgument {}
extension Int64: FormatArgument {}
extension Int32: FormatArgument {}
extension Double: FormatArgument {}
extension Float: FormatArgument {}
extension String: FormatArgument {}
extension Bool: FormatArgument {}
extension Date: FormatArgument {}
extension Data: FormatArgument {}
extension UUID: FormatArgument {}
extension Optional: FormatArgument where Wrapped: ValueConvertible {}

extension Array: FormatArgument where Element: ValueConvertible {}
extension Set: FormatArgument where Element: ValueConvertible {}
extension ContiguousArray: FormatArgument where Element: ValueConvertible {}
