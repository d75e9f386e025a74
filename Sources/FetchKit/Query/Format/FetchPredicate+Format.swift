extension FetchPredicate {
    /// Parses an NSPredicate-style format string, substituting `%@`, `%K`, `%d` and `%f` with `arguments`.
    ///
    /// ```swift
    /// let p = try FetchPredicate(format: "done == NO AND category.name BEGINSWITH[c] %@", "work")
    /// let q = try FetchPredicate(format: "ANY tags.name IN %@ OR %K.@count > %d", ["a", "b"], "todos", 2)
    /// ```
    ///
    /// The grammar is NSPredicate's: comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`, `IN`, `BETWEEN`,
    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`, each with `[c]`, `[d]` or `[cd]`), joined by
    /// `NOT` > `AND` > `OR` and parentheses; `ANY`, `SOME`, `ALL`, `NONE`; `SELF`, `key.@count`, `$VARIABLE`;
    /// literals `NULL`, `TRUE`, `FALSE`, numbers, quoted strings, `{lists}` and `CAST(x, 'NSDate')`.
    /// Keywords are case-insensitive; a reserved word is used as a key with a `#` before it (`#in`).
    /// Substitutions inside quoted strings are left as written.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate`` with the UTF-8 offset of the problem when the
    ///   string does not parse, an argument is missing, of the wrong kind, or left over.
    /// - Complexity: O(n) in the length of the format string.
    public init(format: String, _ arguments: any FormatArgument...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an NSPredicate-style format string with its arguments given as an array.
    ///
    /// See ``init(format:_:)`` for the grammar.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate``.
    /// - Complexity: O(n) in the length of the format string.
    public init(format: String, argumentArray: [any FormatArgument]) throws {
        var parser = try FormatParser(format: format, arguments: argumentArray)
        self = try parser.parse()
    }
}
