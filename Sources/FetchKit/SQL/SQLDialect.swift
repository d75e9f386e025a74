/// How one backend writes SQL: placeholders, quoting and capability flags.
///
/// The compiler asks capabilities, never a dialect's name, so a new backend is a new value:
///
/// ```swift
/// var dialect = SQLDialect(name: "MyDB", placeholderStyle: .dollarNumbered)
/// dialect.caseFoldFunction = "lower"
/// dialect.textOrderCollation = "C"
/// let compiler = SQLCompiler(schema: schema, dialect: dialect)
/// ```
///
/// Identifiers are always quoted with double quotes, an embedded `"` doubled (``quote(_:)``).
public struct SQLDialect: Sendable, Hashable {
    /// How bound parameters are written.
    public enum PlaceholderStyle: Sendable, Hashable {
        /// `?` (SQLite).
        case questionMark
        /// `$1`, `$2`, … (PostgreSQL).
        case dollarNumbered
    }

    /// How an `IN` list longer than ``SQLDialect/inlineListLimit`` is bound as one parameter.
    public enum LargeListExpansion: Sendable, Hashable {
        /// `x IN (SELECT value FROM json_each(?))`: the list is bound as one JSON array text.
        ///
        /// Integers and finite doubles are JSON numbers, text JSON strings, booleans `true`/`false`,
        /// dates integer microseconds since 1970. Lists holding binary values or infinities stay inline.
        case jsonEach
        /// `x = ANY(CAST(? AS <column type>[]))`: the list is bound as one text in PostgreSQL's
        /// array-literal syntax (`{1,2}`, `{"a","b"}`, booleans `t`/`f`, dates as UTC timestamps
        /// `2024-01-31 12:00:00.000000+00`). Lists holding binary values stay inline.
        case anyArray
    }

    /// How ``SQLDialect/caseFoldFunction`` makes the case fold of `[c]` and case-insensitive sorts.
    public enum CaseFoldComposition: Sendable, Hashable {
        /// `f(x)`: the function folds by itself (SQLite's `fk_casefold`, or a plain `lower`).
        case single
        /// `replace(f(upper(f(x))), 'ς', 'σ')`: a full lowercase mapping `f` composed with the full uppercase
        /// mapping, so that `ß`, `ẞ`, `ss` and `SS` fold alike (`upper('ß')` is `SS`), as do `ﬁ` and `fi`, and
        /// every small sigma written `σ` — FetchKit's fold (see ``caseFoldMatchesMemory``) where the database
        /// only has `lower()` and `upper()`.
        case lowerUpperLower
    }

    /// How an upsert (insert or update on a primary-key conflict) is written.
    public enum UpsertSyntax: Sendable, Hashable {
        /// `INSERT … ON CONFLICT ("pk") DO UPDATE SET "c" = excluded."c"` (SQLite ≥ 3.24, PostgreSQL ≥ 9.5).
        case onConflictDoUpdate
    }

    /// The backend's name, used only in error messages ("… on SQLite"); the compiler never branches on it.
    public var name: String
    /// How bound parameters are written.
    @_spi(Backend) public var placeholderStyle: PlaceholderStyle
    /// The most bound parameters one statement may have; compiling a bigger statement throws.
    @_spi(Backend) public var maxBoundParameters: Int
    /// The SQL function that folds case for `[c]` and case-insensitive sorts (`fk_casefold`, `lower`).
    @_spi(Backend) public var caseFoldFunction: String
    /// How ``caseFoldFunction`` is applied: alone, or composed with `upper` into a full fold.
    @_spi(Backend) public var caseFoldComposition: CaseFoldComposition
    /// The collation the case fold applies to its argument (`lower(x COLLATE "und-x-icu")`), so that it
    /// folds every script whatever the database's locale; `nil` to fold by the default.
    @_spi(Backend) public var caseFoldCollation: String?
    /// The SQL function that removes diacritics for `[d]`; `nil` when the backend has none,
    /// and then `[d]` throws ``FetchKitError/Code/unsupported``.
    @_spi(Backend) public var diacriticFoldFunction: String?
    /// The collation that orders text by code point, emitted as `COLLATE "C"` wherever text is sorted
    /// or compared for order; `nil` when the default order already is code-point order (SQLite's BINARY).
    @_spi(Backend) public var textOrderCollation: String?
    /// The operator that compares two values treating `NULL` as a value (`IS`, `IS NOT DISTINCT FROM`).
    @_spi(Backend) public var nullSafeEqualOperator: String
    /// The negation of ``nullSafeEqualOperator`` (`IS NOT`, `IS DISTINCT FROM`).
    @_spi(Backend) public var nullSafeNotEqualOperator: String
    /// Whether `ORDER BY x ASC NULLS FIRST` is understood; otherwise it is emulated with `(x IS NULL) DESC`.
    @_spi(Backend) public var supportsNullsOrdering: Bool
    /// How a long `IN` list is bound as one parameter; `nil` keeps every list inline.
    @_spi(Backend) public var largeListExpansion: LargeListExpansion?
    /// `IN` lists with more elements than this use ``largeListExpansion``.
    @_spi(Backend) public var inlineListLimit: Int
    /// The declared column type of each attribute type (`createTable`, `CAST` of list parameters).
    @_spi(Backend) public var columnTypes: [AttributeType: String]
    /// The column definition of an integer primary key the database assigns when an insert leaves it out
    /// (`INTEGER PRIMARY KEY` in SQLite, a rowid alias).
    @_spi(Backend) public var integerPrimaryKeyDefinition: String
    /// The operator of a regular-expression match; `nil` makes `MATCHES` throw. Regular expression
    /// flavours differ between backends, so the shipped dialects leave it `nil`.
    @_spi(Backend) public var regexOperator: String?
    /// How upserts are written; `nil` makes `SQLCompiler.upsert(_:into:)` (backend kit) throw.
    @_spi(Backend) public var upsertSyntax: UpsertSyntax?
    /// Whether `INSERT … RETURNING` is understood. When it is, compiled inserts return the primary key.
    @_spi(Backend) public var supportsReturning: Bool
    /// The clause written before `OFFSET ?` when a request has an offset but no limit
    /// (`LIMIT -1` for SQLite, which needs a limit; empty when `OFFSET` may stand alone).
    @_spi(Backend) public var offsetWithoutLimit: String
    /// Whether the case fold (``caseFoldFunction`` as ``caseFoldComposition`` applies it) folds exactly as
    /// FetchKit does in memory — the full lowercase mapping of the full uppercase mapping of the full
    /// lowercase mapping, every small sigma written `σ` — so that live results may evaluate `[c]` in memory;
    /// `false` sends predicates with `[c]` through the database on every change.
    @_spi(Backend) public var caseFoldMatchesMemory: Bool
    /// Whether ``diacriticFoldFunction`` folds exactly as Foundation's diacritic-insensitive folding
    /// (`String.folding(options: .diacriticInsensitive, locale: nil)`), so that live results may evaluate
    /// `[d]` in memory; `false` sends predicates with `[d]` through the database on every change.
    @_spi(Backend) public var diacriticFoldMatchesMemory: Bool
    /// How the database compares an integer with a double.
    @_spi(Backend) public var mixedNumberComparison: MixedNumberComparison
    /// The type an integer expression is cast to for a floating-point division or average
    /// (`DOUBLE PRECISION`; SQLite's `REAL`).
    @_spi(Backend) public var floatingPointCastType: String
    /// Whether the store runs SQL at all: `false` for a store that answers requests in memory
    /// (FetchKitTesting's `InMemoryStore`), whose ``WriteTransaction/execute(_:_:)`` throws
    /// ``FetchKitError/Code/unsupported``. Code that would send raw SQL asks this, never the dialect's name.
    @_spi(Backend) public var runsSQL: Bool
    /// The longest identifier (table, column, index name) the database keeps, in UTF-8 bytes; `nil` when it
    /// has no practical limit (SQLite). PostgreSQL silently cuts longer names to 63 bytes (`NAMEDATALEN - 1`),
    /// so a store refuses a schema that declares one when it opens
    /// (`checkIdentifierLengths(of:)`, in the backend kit), and cuts the index names it makes up as the database would.
    @_spi(Backend) public var maxIdentifierBytes: Int?

    /// How a backend compares an integer with a double (`bigint_column < 2.5`).
    public enum MixedNumberComparison: Sendable, Hashable {
        /// Exactly, as numbers: `2^53 + 1` is greater than the double `2^53` (SQLite).
        case exact
        /// The integer is converted to a double first, rounding beyond 2^53 (PostgreSQL's `int8` against `float8`).
        case asDouble
    }

    /// Creates a dialect; every capability not given takes a standard-SQL default.
    @_spi(Backend) public init(
        name: String = "SQL",
        placeholderStyle: PlaceholderStyle,
        maxBoundParameters: Int = 32_766,
        caseFoldFunction: String = "lower",
        diacriticFoldFunction: String? = nil,
        textOrderCollation: String? = nil,
        nullSafeEqualOperator: String = "IS NOT DISTINCT FROM",
        nullSafeNotEqualOperator: String = "IS DISTINCT FROM",
        supportsNullsOrdering: Bool = true,
        largeListExpansion: LargeListExpansion? = nil,
        inlineListLimit: Int = 100,
        columnTypes: [AttributeType: String] = SQLDialect.standardColumnTypes,
        integerPrimaryKeyDefinition: String = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        regexOperator: String? = nil,
        upsertSyntax: UpsertSyntax? = .onConflictDoUpdate,
        supportsReturning: Bool = true,
        offsetWithoutLimit: String = "",
        caseFoldCollation: String? = nil,
        caseFoldComposition: CaseFoldComposition = .single,
        caseFoldMatchesMemory: Bool = false,
        diacriticFoldMatchesMemory: Bool = false,
        mixedNumberComparison: MixedNumberComparison = .asDouble,
        floatingPointCastType: String = "DOUBLE PRECISION",
        runsSQL: Bool = true,
        maxIdentifierBytes: Int? = nil
    ) {
        self.name = name
        self.placeholderStyle = placeholderStyle
        self.maxBoundParameters = maxBoundParameters
        self.caseFoldFunction = caseFoldFunction
        self.diacriticFoldFunction = diacriticFoldFunction
        self.textOrderCollation = textOrderCollation
        self.nullSafeEqualOperator = nullSafeEqualOperator
        self.nullSafeNotEqualOperator = nullSafeNotEqualOperator
        self.supportsNullsOrdering = supportsNullsOrdering
        self.largeListExpansion = largeListExpansion
        self.inlineListLimit = inlineListLimit
        self.columnTypes = columnTypes
        self.integerPrimaryKeyDefinition = integerPrimaryKeyDefinition
        self.regexOperator = regexOperator
        self.upsertSyntax = upsertSyntax
        self.supportsReturning = supportsReturning
        self.offsetWithoutLimit = offsetWithoutLimit
        self.caseFoldCollation = caseFoldCollation
        self.caseFoldComposition = caseFoldComposition
        self.caseFoldMatchesMemory = caseFoldMatchesMemory
        self.diacriticFoldMatchesMemory = diacriticFoldMatchesMemory
        self.mixedNumberComparison = mixedNumberComparison
        self.floatingPointCastType = floatingPointCastType
        self.runsSQL = runsSQL
        self.maxIdentifierBytes = maxIdentifierBytes
    }

    /// `expression` folded for case (see `caseFolded(_:)` of a fragment, in the backend kit).
    package func caseFolded(_ expression: String) -> String {
        let (open, close) = caseFoldWrapping
        return open + expression + close
    }

    /// The SQL written before and after the expression a case fold applies to:
    /// `lower(` and ` COLLATE "und-x-icu")`, or `replace(lower(upper(lower(` and `…)))), 'ς', 'σ')`.
    package var caseFoldWrapping: (String, String) {
        let function = caseFoldFunction + "("
        let collated = caseFoldCollationClause + ")"
        switch caseFoldComposition {
        case .single:
            return (function, collated)
        case .lowerUpperLower:
            return ("replace(" + function + "upper(" + function, collated + "))" + ", 'ς', 'σ')")
        }
    }

    /// ` COLLATE "…"` for ``caseFoldCollation``, or nothing.
    private var caseFoldCollationClause: String { caseFoldCollation.map { " COLLATE " + quote($0) } ?? "" }

    /// Standard SQL column types: `BIGINT`, `DOUBLE PRECISION`, `TEXT`, `BOOLEAN`, `TIMESTAMPTZ`, `BYTEA`.
    public static let standardColumnTypes: [AttributeType: String] = [
        .integer: "BIGINT", .double: "DOUBLE PRECISION", .text: "TEXT", .bool: "BOOLEAN",
        .date: "TIMESTAMPTZ", .binary: "BYTEA"
    ]

    /// Whether `MATCHES` can be compiled.
    @_spi(Backend) public var supportsRegex: Bool { regexOperator != nil }

    /// The declared column type for `type` (falls back to the standard type when the table has no entry).
    public func columnType(for type: AttributeType) -> String {
        columnTypes[type] ?? SQLDialect.standardColumnTypes[type] ?? "BLOB"
    }

    /// `identifier` in double quotes, each embedded `"` doubled: `a"b` → `"a""b"`.
    ///
    /// - Complexity: O(*m*) for an identifier of *m* UTF-8 bytes, without Foundation's bridged string search
    ///   (which made quoting most of the cost of compiling a small query).
    public func quote(_ identifier: String) -> String {
        SQLDialect.enclose(identifier, in: UInt8(ascii: "\""))
    }

    /// `text` between two `mark`s (an ASCII quote), each `mark` inside it doubled — compared by UTF-8 byte,
    /// never by `Character`: a quote followed by a combining mark is one `Character` that is not `"`, yet the
    /// database reads its first byte as a quote that ends the identifier or literal. (An ASCII byte is never
    /// part of a multi-byte UTF-8 sequence, so doubling it keeps the text valid.)
    package static func enclose(_ text: String, in mark: UInt8) -> String {
        let quote = String(decoding: [mark], as: UTF8.self)
        guard text.utf8.contains(mark) else { return quote + text + quote }
        var bytes: [UInt8] = [mark]
        bytes.reserveCapacity(text.utf8.count + 4)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == mark { bytes.append(mark) }
        }
        bytes.append(mark)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The placeholder of the `index`-th bound parameter (1-based): `?` or `$index`.
    public func placeholder(_ index: Int) -> String {
        switch placeholderStyle {
        case .questionMark: return "?"
        case .dollarNumbered: return "$\(index)"
        }
    }
}
