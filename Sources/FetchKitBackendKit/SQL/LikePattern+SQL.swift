extension LikePattern {
    /// The pattern for `op` when the right side is a column: escaped in SQL with `replace` and joined
    /// to the wildcards with `||` (both standard in SQLite and PostgreSQL).
    static func sqlPattern(for op: FetchPredicate.Operator, escaping column: SQLFragment) -> SQLFragment {
        let escaped = "replace(replace(replace(" + column + ", '\\', '\\\\'), '%', '\\%'), '_', '\\_')"
        switch op {
        case .beginsWith: return escaped + " || '%'"
        case .endsWith: return "'%' || " + escaped
        default: return "'%' || " + escaped + " || '%'"
        }
    }
}
