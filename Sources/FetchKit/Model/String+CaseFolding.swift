extension String {
    /// The text `[c]` comparisons and case-insensitive sorts compare: Unicode's full lowercase mapping,
    /// with one context rule — a capital sigma that ends a word becomes `ς`, not `σ` (Unicode's
    /// Final_Sigma condition, as ICU's and PostgreSQL's `lower()` apply it).
    ///
    /// Every backend folds exactly this way (SQLite's `fk_casefold` calls it; PostgreSQL's
    /// `lower(x COLLATE "und-x-icu")` agrees), so a case-insensitive order in memory is the database's.
    ///
    /// ```swift
    /// "ΟΔΟΣ Zürich".fetchKitCaseFolded   // "οδος zürich"
    /// ```
    ///
    /// - Complexity: O(*n*) in the number of Unicode scalars.
    package var fetchKitCaseFolded: String {
        guard unicodeScalars.contains("\u{03A3}") else { return lowercased() }
        let scalars = Array(unicodeScalars)
        var folded = String.UnicodeScalarView()
        for index in scalars.indices {
            if scalars[index] == "\u{03A3}" && Self.endsWord(scalars, at: index) {
                folded.append("\u{03C2}")
            } else {
                folded.append(contentsOf: scalars[index].properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(folded)
    }

    /// Whether the sigma at `index` is final: a cased letter comes before it (skipping case-ignorable
    /// scalars) and none after it (likewise).
    private static func endsWord(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var before = index - 1
        while before >= 0 && scalars[before].properties.isCaseIgnorable { before -= 1 }
        guard before >= 0, scalars[before].properties.isCased else { return false }
        var after = index + 1
        while after < scalars.count && scalars[after].properties.isCaseIgnorable { after += 1 }
        return after == scalars.count || !scalars[after].properties.isCased
    }
}
