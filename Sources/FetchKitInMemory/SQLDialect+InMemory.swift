@_spi(Backend) import FetchKit
import FetchKitBackendKit

extension SQLDialect {
    /// The dialect ``InMemoryStore`` reports: it runs no SQL (``SQLDialect/runsSQL`` is `false`), and its
    /// capabilities describe how it answers requests in memory.
    ///
    /// - Both folds are FetchKit's own (the in-memory evaluator's), so live results evaluate `[c]` and `[d]` in
    ///   memory, as on SQLite.
    /// - Integers compare with doubles exactly, as on SQLite.
    /// - Text orders by code point, `NULL` first ascending, as every backend orders it.
    ///
    /// The placeholders and function names are SQLite's, so SQL compiled with this dialect (for a message, or
    /// by code that compiles before it asks ``SQLDialect/runsSQL``) is well-formed; it is never run.
    static let inMemory = SQLDialect(
        name: "in-memory",
        placeholderStyle: .questionMark,
        caseFoldFunction: "fk_casefold",
        diacriticFoldFunction: "fk_unaccent",
        nullSafeEqualOperator: "IS",
        nullSafeNotEqualOperator: "IS NOT",
        integerPrimaryKeyDefinition: "INTEGER PRIMARY KEY",
        caseFoldMatchesMemory: true,
        diacriticFoldMatchesMemory: true,
        mixedNumberComparison: .exact,
        runsSQL: false)
}
