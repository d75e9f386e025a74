import FetchKit
import FetchKitFixtures
import Foundation

extension StoreConformance {
    /// Texts for ``caseFoldRuleCases``, stored as notes whose slug is the index.
    static let caseFoldRuleTexts = [
        "σ", "ς", "Σ", "ΟΔΟΣ", "οδος", "οδοσ",  // 0–5: the three sigmas
        "Straße", "STRASSE", "strasse", "STRAẞE", "Strase",  // 6–10: sharp s
        "I", "i", "İ", "ı", "i\u{307}",  // 11–15: dotted and dotless i
        "ﬁle", "FILE", "file",  // 16–18: the fi ligature
        "\u{212A}elvin", "Kelvin", "kelvin"  // 19–21: the Kelvin sign
    ]

    /// `[c]` comparisons with the texts (by index in ``caseFoldRuleTexts``) they match, worked out by hand
    /// from FetchKit's fold: σ, ς and Σ alike; ß, ẞ, ss and SS alike; ﬁ as fi; the Kelvin sign as k; İ as i
    /// followed by U+0307; the dotless ı as i. Wildcards and substrings apply to the folded text.
    static let caseFoldRuleCases: [(format: String, argument: String, expected: Set<Int>)] = [
        ("body ==[c] %@", "σ", [0, 1, 2]),
        ("body ==[c] %@", "ς", [0, 1, 2]),
        ("body ==[c] %@", "οδος", [3, 4, 5]),
        ("body ==[c] %@", "ΟΔΟΣ", [3, 4, 5]),
        ("body CONTAINS[c] %@", "ΟΣ", [3, 4, 5]),
        ("body ENDSWITH[c] %@", "ς", [0, 1, 2, 3, 4, 5]),
        ("body BEGINSWITH[c] %@", "Σ", [0, 1, 2]),
        ("body ==[c] %@", "strasse", [6, 7, 8, 9]),
        ("body ==[c] %@", "STRAßE", [6, 7, 8, 9]),
        ("body CONTAINS[c] %@", "ß", [6, 7, 8, 9]),
        ("body CONTAINS[c] %@", "ẞ", [6, 7, 8, 9]),
        ("body LIKE[c] %@", "stra?e", [10]),
        ("body LIKE[c] %@", "stra??e", [6, 7, 8, 9]),
        ("body ==[c] %@", "i", [11, 12, 14]),
        ("body ==[c] %@", "ı", [11, 12, 14]),
        ("body ==[c] %@", "İ", [13, 15]),
        ("body BEGINSWITH[c] %@", "i", [11, 12, 13, 14, 15]),
        ("body ==[c] %@", "file", [16, 17, 18]),
        ("body BEGINSWITH[c] %@", "FI", [16, 17, 18]),
        ("body ==[c] %@", "KELVIN", [19, 20, 21]),
        ("body ==[c] %@", "\u{212A}ELVIN", [19, 20, 21]),
        ("body <[c] %@", "strast", Set(6...21)),
        ("body >[c] %@", "strasse", [0, 1, 2, 3, 4, 5])
    ]

    /// The hand-worked `[c]` check.
    static var caseFoldRuleChecks: [Check] {
        [
            Check(
                name: "[c] rules: sigmas, sharp s, dotted and dotless i, ligatures, Kelvin (hand-worked)",
                body: { try await $0.checkCaseFoldRules(on: $1) })
        ]
    }

    /// Each of ``caseFoldRuleCases`` through the database and, where the dialect allows, in memory.
    func checkCaseFoldRules(on store: any PersistentStore) async throws {
        let texts = Self.caseFoldRuleTexts
        try await store.write { tx in
            for (index, text) in texts.enumerated() { try tx.insert(Fixtures.NoteRecord(slug: "\(index)", body: text)) }
        }
        let rows = try await store.fetch(FetchRequest(entity: "Note"))
        for (format, argument, expected) in Self.caseFoldRuleCases {
            let predicate = try FetchPredicate(format: format, argument)
            let found = Set(
                try await store.fetch(FetchRequest(entity: "Note", predicate: predicate))
                    .compactMap { $0["slug", as: String.self].flatMap(Int.init) })
            try expect(
                found == expected, "\(format) with '\(argument)' found \(found.sorted()), expected \(expected.sorted())"
            )
            let validated = try predicate.validated(for: Fixtures.note, in: Fixtures.schema)
            guard
                let memory = InMemoryPredicate(
                    validated, entity: Fixtures.note, schema: Fixtures.schema, dialect: store.dialect)
            else { continue }
            let inMemory = Set(rows.filter(memory.matches).compactMap { $0["slug", as: String.self].flatMap(Int.init) })
            try expect(inMemory == expected, "\(format) with '\(argument)' in memory: \(inMemory.sorted())")
        }
    }
}
