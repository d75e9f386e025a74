import Foundation

extension FetchPredicate {
    /// Translates a Foundation `#Predicate` over a record type into a fetch predicate.
    ///
    /// ```swift
    /// let urgent = try FetchPredicate(#Predicate<Todo> { !$0.done && $0.priority > 2 })
    /// let some = try FetchPredicate(#Predicate<Todo> { [1, 2].contains($0.priority) && $0.notes != nil })
    /// ```
    ///
    /// Supported: properties of the record (mapped to attributes through
    /// ``Record/attributeName(forProperty:)``), captured values of attribute types (and their
    /// optionals, raw-value enums, arrays and ranges), `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`,
    /// `array.contains($0.x)` (`IN`), `(a...b).contains($0.x)` (`BETWEEN`), `(a..<b).contains($0.x)`,
    /// `$0.text.contains(s)` (`CONTAINS`), `$0.text.starts(with: s)` (`BEGINSWITH`) — both true for an empty
    /// `s`, as in Swift, where a format string's `CONTAINS ''` is false, as in NSPredicate —
    /// `localizedStandardContains` where Foundation has it (`CONTAINS[cd]`), and a forced unwrap of
    /// a property (`$0.due! < date`: a `NULL` makes the comparison false, as in SQL).
    ///
    /// Not supported, because they have no plain SQL meaning here: arithmetic, `??`, the ternary
    /// operator, optional chaining (`$0.notes?.count`), closures (`contains(where:)`, `allSatisfy`),
    /// properties of properties (`$0.title.count`), casts, regexes and string comparison functions.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` naming the first construct it cannot translate,
    ///   as in `#Predicate construct PredicateExpressions.Arithmetic<…> has no SQL translation`.
    public init<R: Record>(_ predicate: Foundation.Predicate<R>) throws {
        let translation = PredicateTranslation<R>(variable: predicate.variable.key)
        self = try translation.predicate(predicate.expression)
    }
}
