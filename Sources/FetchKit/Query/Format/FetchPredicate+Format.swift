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
    /// Parentheses, `NOT`s, unary minuses, `SUBQUERY`s and the operators of an arithmetic chain nest at most 100
    /// levels deep together; `AND` and `OR` chains of any length are one level.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate`` with the UTF-8 offset of the problem when the
    ///   string is empty, does not parse, nests too deeply, or an argument is missing, of the wrong kind, or
    ///   left over (offset: the end of the string); ``FetchKitError/Code/unsupported`` with the construct
    ///   (``FetchKitError/Context-swift.struct/construct``) and its offset for a construct of NSPredicate's
    ///   grammar FetchKit refuses (a bitwise operator, `**`, an index, `FUNCTION`, a custom selector…).
    /// - Complexity: O(n) in the length of the format string.
    public init(format: String, _ arguments: any FormatArgument...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an NSPredicate-style format string with its arguments given as an array.
    ///
    /// See ``init(format:_:)`` for the grammar.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate`` or ``FetchKitError/Code/unsupported``.
    /// - Complexity: O(n) in the length of the format string.
    public init(format: String, argumentArray: [any FormatArgument]) throws {
        var parser = try FormatParser(format: format, arguments: argumentArray)
        self = try parser.parse()
    }
}
