import FetchKit
import Foundation

extension StoreConformance {
    /// One predicate and the primary keys it selects from the fixtures, in key order.
    public struct PredicateCase: Sendable, CustomStringConvertible {
        /// The entity fetched.
        public let entity: String
        /// The predicate, as an NSPredicate-style format string.
        public let format: String
        /// The format's `%@`, `%K`, `%d` … arguments.
        public let arguments: [any FormatArgument]
        /// The primary keys it selects, ascending.
        public let expected: [Int64]
        public var description: String { "\(entity): \(format)" }

        init(_ format: String, _ arguments: [any FormatArgument], _ expected: [Int64], on entity: String = "Todo") {
            self.entity = entity
            self.format = format
            self.arguments = arguments
            self.expected = expected
        }

        /// Whether the predicate folds diacritics (`[d]`, `[cd]`).
        var foldsDiacritics: Bool { format.contains("[d]") || format.contains("[cd]") }
    }

    /// Every predicate form, with the primary keys it selects from the fixtures (worked out by hand).
    static let predicateCases: [PredicateCase] = [
        // Booleans and comparisons
        PredicateCase("done == NO", [], [1, 3, 4, 5, 7, 9]),
        PredicateCase("done == YES", [], [2, 6, 8, 10]),
        PredicateCase("done = FALSE", [], [1, 3, 4, 5, 7, 9]),
        PredicateCase("done == 1", [], [2, 6, 8, 10]),
        PredicateCase("priority > 2", [], [1, 5, 7, 9]),
        PredicateCase("priority >= 3", [], [1, 5, 7, 9]),
        PredicateCase("priority => 4", [], [5, 7]),
        PredicateCase("priority < 1", [], [6, 10]),
        PredicateCase("priority <= 1", [], [3, 4, 6, 10]),
        PredicateCase("priority =< 1", [], [3, 4, 6, 10]),
        PredicateCase("priority != 2", [], [1, 3, 4, 5, 6, 7, 9, 10]),
        PredicateCase("priority <> 2", [], [1, 3, 4, 5, 6, 7, 9, 10]),
        PredicateCase("2 < priority", [], [1, 5, 7, 9]),
        PredicateCase("priority == -1", [], [10]),
        // NULL semantics (NSPredicate's: NULL != 'unit' is true)
        PredicateCase("notes == nil", [], [2, 5, 8]),
        PredicateCase("notes == NULL", [], [2, 5, 8]),
        PredicateCase("notes != nil", [], [1, 3, 4, 6, 7, 9, 10]),
        PredicateCase("notes != 'unit'", [], [1, 2, 3, 4, 5, 6, 8, 9, 10]),
        PredicateCase("notes == ''", [], [10]),
        PredicateCase("ordering == nil", [], [4, 8]),
        PredicateCase("categoryID == nil", [], [8, 9]),
        PredicateCase("attachment != nil", [], [5]),
        // Text equality, case and diacritics, unicode
        PredicateCase("title == 'Buy milk'", [], [4]),
        PredicateCase("title ==[c] 'BUY MILK'", [], [4]),
        PredicateCase("title == \"日本語のタスク\"", [], [9]),
        PredicateCase("notes CONTAINS '🎉'", [], [9]),
        // String operators
        PredicateCase("title BEGINSWITH 'W'", [], [1, 7]),
        PredicateCase("title BEGINSWITH 'Wr'", [], [1]),
        PredicateCase("title BEGINSWITH[c] 'wr'", [], [1, 7]),
        PredicateCase("title ENDSWITH 'k'", [], [4, 5]),
        PredicateCase("title ENDSWITH[c] 'S'", [], [7]),
        PredicateCase("title CONTAINS 'e'", [], [1, 2, 3, 7, 10]),
        PredicateCase("title CONTAINS 'E'", [], [7]),
        PredicateCase("title CONTAINS[c] 'E'", [], [1, 2, 3, 7, 10]),
        PredicateCase("notes CONTAINS 'resume'", [], []),
        PredicateCase("notes CONTAINS[d] 'resume'", [], [3]),
        PredicateCase("notes CONTAINS[cd] 'RESUME'", [], [3]),
        PredicateCase("notes CONTAINS[d] 'zurich'", [], []),
        PredicateCase("notes CONTAINS[cd] 'zurich'", [], [6]),
        PredicateCase("title BEGINSWITH[cd] 'cafe'", [], [3]),
        // LIKE wildcards and escaping of user data
        PredicateCase("title LIKE 'W*'", [], [1, 7]),
        PredicateCase("title LIKE '?uy*'", [], [4]),
        PredicateCase("title LIKE[c] 'write*'", [], [1, 7]),
        PredicateCase("title LIKE '*i?k'", [], [4, 5]),
        PredicateCase("notes LIKE '*_*'", [], [4]),
        PredicateCase("notes LIKE '2%*'", [], [4]),
        PredicateCase("notes CONTAINS '%'", [], [4]),
        PredicateCase("notes CONTAINS '_'", [], [4]),
        PredicateCase("notes BEGINSWITH '2%'", [], [4]),
        PredicateCase("notes ENDSWITH '_free'", [], [4]),
        // IN, BETWEEN
        PredicateCase("title IN {'Buy milk', 'Fix sink'}", [], [4, 5]),
        PredicateCase("priority IN {0, -1, 5}", [], [5, 6, 10]),
        PredicateCase("title IN %@", [["Call mom", "archive"]], [8, 10]),
        PredicateCase("priority IN %@", [[Int]()], []),
        PredicateCase("id IN %@", [Array(Int64(1)...Int64(2_000))], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        PredicateCase("priority BETWEEN {2, 3}", [], [1, 2, 8, 9]),
        PredicateCase("ordering BETWEEN {0.5, 3.5}", [], [1, 2, 3, 9]),
        PredicateCase("ordering BETWEEN %@", [[0.5, 3.5]], [1, 2, 3, 9]),
        PredicateCase("ordering < 0", [], [5]),
        // Dates to the microsecond
        PredicateCase("due != nil", [], [1, 6]),
        PredicateCase("due > %@", [Date(microsecondsSince1970: 1_700_000_000_000_000)], [1, 6]),
        PredicateCase("due > %@", [Date(microsecondsSince1970: 1_700_000_000_123_456)], [1]),
        PredicateCase("due == %@", [Date(microsecondsSince1970: 1_700_000_000_123_456)], [6]),
        // Compound predicates
        PredicateCase("NOT (done == YES)", [], [1, 3, 4, 5, 7, 9]),
        PredicateCase("!(done == YES)", [], [1, 3, 4, 5, 7, 9]),
        PredicateCase("done == NO AND priority > 2", [], [1, 5, 7, 9]),
        PredicateCase("done == NO && priority > 2 && notes != nil", [], [1, 7, 9]),
        PredicateCase("done == YES OR priority > 4", [], [2, 5, 6, 8, 10]),
        PredicateCase("done == YES || (priority > 3 AND title BEGINSWITH 'F')", [], [2, 5, 6, 8, 10]),
        PredicateCase("TRUEPREDICATE", [], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        PredicateCase("FALSEPREDICATE", [], []),
        // To-one key paths
        PredicateCase("category.name == 'Work'", [], [1, 2, 7, 10]),
        PredicateCase("category.name BEGINSWITH 'E'", [], [3, 4]),
        PredicateCase("category.position > 0", [], [3, 4, 5, 6]),
        PredicateCase("category.name == 'Work' AND done == NO", [], [1, 7]),
        PredicateCase("category.name != 'Work'", [], [3, 4, 5, 6, 8, 9]),
        // SELF and substitutions
        PredicateCase("SELF == 3", [], [3]),
        PredicateCase("SELF IN {1, 2}", [], [1, 2]),
        PredicateCase("%K == %@", ["title", "Buy milk"], [4]),
        PredicateCase("priority == %d", [5], [5]),
        PredicateCase("ordering > %f", [3.9], [6, 7, 10]),
        PredicateCase("%K BEGINSWITH[c] %@", ["category.name", "ho"], [5, 6]),
        // To-many: quantifiers and @count
        PredicateCase("ANY todos.done == YES", [], [1, 2], on: "Category"),
        PredicateCase("SOME todos.notes CONTAINS[cd] 'zurich'", [], [2], on: "Category"),
        PredicateCase("ALL todos.done == NO", [], [3], on: "Category"),
        PredicateCase("NONE todos.priority > 4", [], [1, 3], on: "Category"),
        PredicateCase("ANY todos.title BEGINSWITH[c] 'w'", [], [1], on: "Category"),
        PredicateCase("todos.@count >= 3", [], [1], on: "Category"),
        PredicateCase("todos.@count == 2", [], [2, 3], on: "Category"),
        PredicateCase("ANY todos.priority IN {5, 1}", [], [2, 3], on: "Category"),
        // Forms added from the SQLite dialect's own tests, now run on every backend
        PredicateCase("NOT (notes == 'unit')", [], [1, 2, 3, 4, 5, 6, 8, 9, 10]),
        PredicateCase("NOT (ordering > 2)", [], [1, 2, 4, 5, 8, 9]),
        PredicateCase("notes IN {'unit', nil}", [], [2, 5, 7, 8]),
        PredicateCase("category == nil", [], [8, 9]),
        PredicateCase("category == 3", [], [3, 4]),
        PredicateCase("notes CONTAINS '2%'", [], [4]),
        PredicateCase("notes LIKE '2% fat?free'", [], [4]),
        PredicateCase("notes LIKE '*t'", [], [7]),
        PredicateCase("title BEGINSWITH 'write'", [], []),
        PredicateCase("title BEGINSWITH[c] 'write'", [], [1, 7]),
        PredicateCase("title LIKE 'w*'", [], []),
        PredicateCase("title CONTAINS[cd] 'CAFE'", [], [3]),
        PredicateCase("notes CONTAINS[d] 'Zurich'", [], [6]),
        PredicateCase("title ENDSWITH 'タスク'", [], [9]),
        PredicateCase("title BEGINSWITH notes", [], []),
        PredicateCase("title CONTAINS notes", [], []),
        PredicateCase("priority BETWEEN {1, 3}", [], [1, 2, 3, 4, 8, 9]),
        PredicateCase("ordering < 1", [], [5, 9]),
        PredicateCase("priority > 2.5", [], [1, 5, 7, 9]),
        PredicateCase("title < 'a'", [], [1, 3, 4, 5, 6, 7, 8]),
        PredicateCase("priority == ordering", [], [2, 7]),
        PredicateCase("SELF IN %@", [[2, 4, 6, 8, 10] + Array(100...200)], [2, 4, 6, 8, 10]),
        PredicateCase(
            "title IN %@", [["Café order", "日本語のタスク", "quote \" and \\ slash"] + (0..<70).map { "t\($0)" }], [3, 9]),
        PredicateCase("ordering IN %@", [[-1.0, 0.5] + (0..<70).map { Double($0) + 100.25 }], [5, 9]),
        PredicateCase("priority IN {}", [], []),
        PredicateCase("NONE todos.priority > 3", [], [3], on: "Category"),
        PredicateCase("ALL todos.ordering > 0", [], [1], on: "Category"),
        PredicateCase("todos.@count > 2", [], [1], on: "Category"),
        PredicateCase("ANY category.todos.priority == 5", [], [5, 6]),
        PredicateCase("ANY todos.title BEGINSWITH[c] name", [], [], on: "Category"),
        // Case folding beyond ASCII, whatever the database's locale
        PredicateCase("title ==[c] 'CAFÉ ORDER'", [], [3]),
        PredicateCase("notes CONTAINS[c] 'ZÜRICH'", [], [6]),
        PredicateCase("notes ENDSWITH[c] 'RÉSUMÉ'", [], [3]),
        PredicateCase("notes LIKE[c] 'NAÏVE*'", [], [3]),
        PredicateCase("title <[c] 'b'", [], [10]),
        PredicateCase("title >=[c] 'W'", [], [1, 7, 9]),
        PredicateCase("title BETWEEN[c] {'BUY', 'CALL'}", [], [3, 4]),
        PredicateCase("notes <[cd] 'NAIVE'", [], [4, 9, 10]),
        // An empty needle matches nothing (NSPredicate over NSString); LIKE '' matches the empty text
        PredicateCase("title BEGINSWITH ''", [], []),
        PredicateCase("title ENDSWITH ''", [], []),
        PredicateCase("title CONTAINS ''", [], []),
        PredicateCase("notes CONTAINS[c] ''", [], []),
        PredicateCase("notes ENDSWITH[cd] ''", [], []),
        PredicateCase("notes LIKE ''", [], [10]),
        PredicateCase("NOT (title CONTAINS '')", [], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        PredicateCase("title ENDSWITH notes", [], []),
        PredicateCase("title CONTAINS[c] notes", [], []),
        PredicateCase("notes BEGINSWITH notes", [], [1, 3, 4, 6, 7, 9]),
        PredicateCase("NOT (title CONTAINS notes)", [], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        PredicateCase("ANY todos.title CONTAINS ''", [], [], on: "Category"),
        PredicateCase("ALL todos.title CONTAINS ''", [], [], on: "Category"),
        PredicateCase("NONE todos.notes BEGINSWITH ''", [], [1, 2, 3], on: "Category")
    ]
}
