/// How one backend writes SQL: placeholders, quoting and capability flags.
///
/// The compiler asks capabilities, never a dialect's name, so a new backend is a new value.
public struct SQLDialect: Sendable, Hashable {
    /// How bound parameters are written.
    public enum PlaceholderStyle: Sendable, Hashable {
        /// `?` (SQLite).
        case questionMark
        /// `$1`, `$2`, … (PostgreSQL).
        case dollarNumbered
    }

    /// How bound parameters are written.
    public var placeholderStyle: PlaceholderStyle

    /// Creates a dialect. (The full set of capability flags is filled in by the SQL compiler work.)
    public init(placeholderStyle: PlaceholderStyle) {
        self.placeholderStyle = placeholderStyle
    }
}
