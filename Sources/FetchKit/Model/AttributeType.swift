/// The type of an entity's attribute, independent of any backend.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 64-bit signed integer.
    case integer
    /// Double-precision float.
    case double
    /// Unicode text.
    case text
    /// Boolean.
    case bool
    /// Date, kept to the microsecond.
    case date
    /// Binary data.
    case binary

    /// The article and name used in error messages: "an integer", "a text".
    public var description: String {
        switch self {
        case .integer: return "an integer"
        case .double: return "a double"
        case .text: return "a text"
        case .bool: return "a bool"
        case .date: return "a date"
        case .binary: return "a binary"
        }
    }

    /// Whether `value` may be stored in an attribute of this type.
    ///
    /// Integers are accepted by double and bool attributes (0 and 1 only),
    /// so `%d` arguments and literal `1` work as NSPredicate users expect.
    public func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (_, .null): return true
        case (.integer, .integer), (.double, .double), (.text, .text), (.bool, .bool),
            (.date, .date), (.binary, .blob):
            return true
        case (.integer, .double(let d)): return Int64(exactly: d) != nil
        case (.double, .integer): return true
        case (.bool, .integer(let i)): return i == 0 || i == 1
        default: return false
        }
    }

    /// `value` converted to this type's canonical case, or `nil` when it does not fit.
    public func coerce(_ value: Value) -> Value? {
        switch (self, value) {
        case (_, .null): return .null
        case (.integer, .double(let d)): return Int64(exactly: d).map(Value.integer)
        case (.double, .integer(let i)): return .double(Double(i))
        case (.bool, .integer(let i)) where i == 0 || i == 1: return .bool(i == 1)
        default: return accepts(value) ? value : Optional<Value>.none
        }
    }
}
