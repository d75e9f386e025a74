/// A column whose type in the database is not the dialect's standard type for its attribute type (an
/// `integer` or `uuid` column in PostgreSQL, say): how the compiler reads it, compares it, orders it and
/// writes it so that it behaves exactly as FetchKit's attribute type — the same answers live results give
/// in memory.
///
/// A backend that reads its tables' column types from the database's catalog hands them to
/// ``SQLCompiler/init(schema:dialect:nativeColumns:)``; a column without one is the standard type.
///
/// ```swift
/// // PostgreSQL's uuid: compared and ordered as its text, written through a cast, looked up by key natively.
/// NativeColumn(typeName: #""pg_catalog"."uuid""#, reading: .cast, writing: .cast, keyComparison: .canonicalUUID)
/// ```
public struct NativeColumn: Sendable, Hashable {
    /// How the column is read, compared and ordered.
    public enum Reading: Sendable, Hashable {
        /// As it is: its own comparisons and order are FetchKit's.
        case native
        /// `CAST(column AS <the dialect's standard type>)`: its own comparisons or order differ (enums order by
        /// declaration, `citext` ignores case, `char(n)` keeps its padding, `numeric` is exact).
        case cast
        /// `(column AT TIME ZONE 'UTC')`: a timestamp without time zone, read as UTC.
        case utcTimestamp
        /// `(CAST(column AS timestamp) AT TIME ZONE 'UTC')`: a date, read as midnight UTC.
        case utcDate
    }

    /// How a bound value goes into the column, or is compared with the column as it is.
    public enum Binding: Sendable, Hashable {
        /// The parameter as it is (the database converts it on assignment).
        case plain
        /// `CAST(? AS <type name>)`: the database has no assignment cast from the parameter's type.
        case cast
        /// `(? AT TIME ZONE 'UTC')`: an instant as a timestamp without time zone, in UTC.
        case utcTimestamp
        /// `CAST((? AT TIME ZONE 'UTC') AS <type name>)`: the UTC date of an instant.
        case utcDate
    }

    /// When an equality or `IN` with bound values may compare the column as it is, with the values bound as
    /// ``comparisonBinding`` (so the column's index serves key lookups): the column's own equality is
    /// FetchKit's for those values.
    public enum KeyComparison: Sendable, Hashable {
        /// For every value.
        case always
        /// For text in a UUID's canonical lowercase form (another text equals no UUID in memory, and would not
        /// even parse as one).
        case canonicalUUID
        /// For text that does not end with a space (`char(n)` equality ignores trailing spaces).
        case unpaddedText
    }

    /// What the column can hold, checked before a write so that the error names the column.
    public enum Limit: Sendable, Hashable {
        /// Integers in this range (`smallint`, `integer`).
        case integer(ClosedRange<Int64>)
        /// Numbers of this many digits in all, this many after the point (`numeric(p, s)`).
        case decimal(precision: Int, scale: Int)
        /// Finite doubles that a 32-bit float can hold without overflow or underflow (`real`).
        case float32
        /// Text of at most this many characters (`varchar(n)`); with `padded`, extra trailing spaces are
        /// dropped rather than refused (`char(n)`).
        case characters(Int, padded: Bool)
    }

    /// The column's type as SQL, its identifiers quoted (`"pg_catalog"."uuid"`), for casts.
    public var typeName: String
    /// How the column is read, compared and ordered.
    public var reading: Reading
    /// How a written value is bound.
    public var writing: Binding
    /// When equality with bound values compares the column as it is; `nil`: always through ``reading``.
    public var keyComparison: KeyComparison?
    /// How a value compared with the column as it is gets bound (with ``keyComparison``, and for order
    /// comparisons of non-text columns read through ``Reading/utcTimestamp`` or ``Reading/utcDate``).
    public var comparisonBinding: Binding
    /// What the column can hold; `nil`: whatever its attribute type can.
    public var limit: Limit?

    /// Describes a column of type `typeName`.
    public init(
        typeName: String, reading: Reading = .native, writing: Binding = .plain, keyComparison: KeyComparison? = nil,
        comparisonBinding: Binding = .plain, limit: Limit? = nil
    ) {
        self.typeName = typeName
        self.reading = reading
        self.writing = writing
        self.keyComparison = keyComparison
        self.comparisonBinding = comparisonBinding
        self.limit = limit
    }
}

/// The native columns of a database's tables, by table and column name.
public typealias NativeColumns = [String: [String: NativeColumn]]
