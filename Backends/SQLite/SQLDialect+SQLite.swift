@_spi(Backend) import FetchKit
import FetchKitBackendKit

extension SQLDialect {
    /// SQLite 3.40 as FetchKit's SQLite store configures it.
    ///
    /// - `?` placeholders, at most 32 766 per statement.
    /// - `[c]` and case-insensitive sorts call `fk_casefold(x)` (`String.fetchKitCaseFolded`:
    ///   `lower(upper(lower(x)))` by Unicode's full mappings, every small sigma `σ`, so `ß` folds to `ss` as
    ///   PostgreSQL's fold does), `[d]` calls `fk_unaccent(x)` (Swift's diacritic-insensitive folding); the store
    ///   registers both functions, which pass non-text values through.
    /// - Text orders by code point (SQLite's BINARY collation), `IS` / `IS NOT` are the null-safe
    ///   comparisons, `NULLS FIRST` / `NULLS LAST` are understood.
    /// - `IN` lists longer than 64 values are bound as one JSON array: `IN (SELECT value FROM json_each(?))`.
    /// - Column types: integers, booleans (0/1) and dates (microseconds since 1970) are `INTEGER`, text
    ///   `TEXT`, binary `BLOB`. Doubles are declared `FLOAT8_BLOB`: a declared type containing `BLOB` has
    ///   BLOB affinity, which keeps `-0.0` (REAL affinity stores integral reals as integers and loses the sign).
    /// - An integer primary key is `INTEGER PRIMARY KEY`, the rowid alias.
    /// - Both folds are FetchKit's own and integers compare with doubles exactly, so live results evaluate
    ///   every predicate without to-many key paths in memory.
    /// - `LIKE` is case-sensitive: the store's connections run `PRAGMA case_sensitive_like = ON`.
    /// - Identifiers have no length limit (``SQLDialect/maxIdentifierBytes`` is `nil`).
    package static let sqlite = SQLDialect(
        name: "SQLite",
        placeholderStyle: .questionMark,
        maxBoundParameters: 32_766,
        caseFoldFunction: "fk_casefold",
        diacriticFoldFunction: "fk_unaccent",
        textOrderCollation: nil,
        nullSafeEqualOperator: "IS",
        nullSafeNotEqualOperator: "IS NOT",
        supportsNullsOrdering: true,
        largeListExpansion: .jsonEach,
        inlineListLimit: 64,
        columnTypes: [
            .integer: "INTEGER", .double: "FLOAT8_BLOB", .text: "TEXT", .bool: "INTEGER", .date: "INTEGER",
            .binary: "BLOB"
        ],
        integerPrimaryKeyDefinition: "INTEGER PRIMARY KEY",
        regexOperator: nil,
        upsertSyntax: .onConflictDoUpdate,
        supportsReturning: true,
        offsetWithoutLimit: "LIMIT -1",
        caseFoldMatchesMemory: true,
        diacriticFoldMatchesMemory: true,
        mixedNumberComparison: .exact,
        floatingPointCastType: "REAL")
}
