extension LikePattern {
    /// The right side of a compiled `BEGINSWITH`, `ENDSWITH`, `CONTAINS` or `LIKE`.
    enum Needle {
        /// A constant text.
        case text(String)
        /// A key path's column.
        case column(SQLFragment)
    }

    /// NSPredicate's rule for an empty needle: no text begins with, ends with or contains `""`
    /// (`NSString`'s `range(of: "")` finds nothing), whereas `LIKE '%'` matches every text.
    ///
    /// A constant empty needle makes the comparison `FALSE`; a key path needle (`title CONTAINS subtitle`)
    /// gets `needle <> ''` beside the match: `(t0."title" LIKE '%' || … || '%' ESCAPE '\' AND t0."subtitle" <> '')`.
    /// The needle is tested as stored, before any `[c]` / `[d]` fold, as NSPredicate does. `LIKE ''` keeps its
    /// meaning (it matches the empty text only). The match is compiled first, so an option the backend
    /// lacks (`[d]`) is refused whatever the needle.
    ///
    /// - Parameters:
    ///   - match: the compiled `LIKE`.
    ///   - op: the operator it was compiled from.
    ///   - needle: its right side.
    static func excludingEmptyNeedle(_ match: SQLCondition, _ op: FetchPredicate.Operator, _ needle: Needle)
        -> SQLCondition
    {
        guard op != .like else { return match }
        switch needle {
        case .text(let text):
            return text.isEmpty ? .alwaysFalse : match
        case .column(let column):
            return SQLCondition(
                sql: (match.sql + " AND " + column + " <> ''").parenthesized, isNullable: match.isNullable,
                isGrouped: true)
        }
    }
}
