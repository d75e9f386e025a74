extension String {
    /// The text `[c]` comparisons and case-insensitive sorts compare: the full lowercase mapping of the
    /// full uppercase mapping of the full lowercase mapping, with every small sigma written `σ`.
    ///
    /// That is Unicode's full case folding (what Foundation's case-insensitive comparison uses) except
    /// for one letter: `σ`, `ς` and `Σ` fold together, `ß`, `ẞ`, `ss` and `SS` fold together, `ﬁ` folds
    /// to `fi`, the Kelvin sign to `k`, `İ` to `i` followed by U+0307; but the dotless `ı` folds to `i`
    /// (case folding keeps it apart), because its uppercase is `I`.
    ///
    /// Every backend folds exactly this way: SQLite's `fk_casefold` calls it and PostgreSQL writes it as
    /// `replace(lower(upper(lower(x COLLATE "und-x-icu"))), 'ς', 'σ')` — the composition exists because
    /// PostgreSQL before 18 has no case-folding function, and the dotless `ı` is the price of it. So a
    /// case-insensitive comparison or order in memory is the database's.
    ///
    /// ```swift
    /// "ΟΔΟΣ Straße".fetchKitCaseFolded   // "οδοσ strasse"
    /// ```
    ///
    /// - Complexity: O(*n*) in the number of Unicode scalars.
    public var fetchKitCaseFolded: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return lowercased() }
        let folded = lowercased().uppercased().lowercased()
        // Swift's lowercase mapping has no final-sigma rule today; should it gain one, `ς` still folds to `σ`.
        guard folded.unicodeScalars.contains("\u{03C2}") else { return folded }
        return String(String.UnicodeScalarView(folded.unicodeScalars.map { $0 == "\u{03C2}" ? "\u{03C3}" : $0 }))
    }
}
