import FetchKit
import Foundation

extension StoreConformance {
    /// Arithmetic, parenthesised operands, lists of key paths, constants on the left, `%@ IN` a relationship,
    /// aggregates and `SUBQUERY`, with the primary keys they select from the fixtures (worked out by hand).
    ///
    /// Category 1 (Work, position 0) holds todos 1, 2, 7, 10 (priorities 3, 2, 4, -1); category 2 (Home,
    /// position 1) todos 5, 6 (priorities 5, 0); category 3 (Errands, position 2) todos 3, 4 (priorities 1, 1).
    static let expressionCases: [PredicateCase] = [
        // Parenthesised operands and arithmetic
        PredicateCase("(priority) > 2", [], [1, 5, 7, 9]),
        PredicateCase("(priority + 1) * 2 > 8", [], [5, 7]),
        PredicateCase("priority * 2 == 6", [], [1, 9]),
        PredicateCase("priority - 1 < 0", [], [6, 10]),
        PredicateCase("-priority >= 1", [], [10]),
        PredicateCase("priority / 2 == 1.5", [], [1, 9]),
        PredicateCase("priority / 2 > 1", [], [1, 5, 7, 9]),
        PredicateCase("priority / 0 == nil", [], Array(1...10)),
        PredicateCase("priority / (priority - priority) > 0", [], []),
        PredicateCase("priority + ordering > 5", [], [6, 7, 10]),
        PredicateCase("NOT (priority + ordering > 5)", [], [1, 2, 3, 4, 5, 8, 9]),
        PredicateCase("priority * 2 > ordering", [], [1, 2, 5, 7, 9]),
        PredicateCase("(1 + 2) * 3 == 9", [], Array(1...10)),
        PredicateCase("priority == 2 + 1", [], [1, 9]),
        PredicateCase("due < %@ + 86400", [Date(microsecondsSince1970: 1_700_000_000_123_456)], [6]),
        PredicateCase("due > %@ - 86400", [Date(microsecondsSince1970: 1_767_225_600_000_000)], [1]),
        // Parenthesised lists, and lists of key paths and constants
        PredicateCase("priority IN (%@)", [[1, 5]], [3, 4, 5]),
        PredicateCase("%K IN (%@)", ["priority", [1, 5]], [3, 4, 5]),
        PredicateCase("priority BETWEEN {ordering, 5}", [], [1, 2, 5, 7, 9]),
        PredicateCase("priority IN {ordering, 1}", [], [2, 3, 4, 7]),
        PredicateCase("!(priority IN {ordering, 1, 5})", [], [1, 6, 8, 9, 10]),
        PredicateCase("%@ BETWEEN {priority, 10}", [3], [1, 2, 3, 4, 6, 8, 9, 10]),
        // A constant on the left of a string operator
        PredicateCase("'Buy milk and more' BEGINSWITH title", [], [4]),
        PredicateCase("'report: Write report' ENDSWITH title", [], [1]),
        PredicateCase("'I must call mom now' CONTAINS[c] title", [], [8]),
        // A value IN a to-many relationship: the object is among the related ones
        PredicateCase("%@ IN todos", [5], [2], on: "Category"),
        PredicateCase("NOT (%@ IN todos)", [5], [1, 3], on: "Category"),
        PredicateCase("%@ IN category.todos", [5], [5, 6]),
        // Aggregates
        PredicateCase("todos.@sum.priority > 5", [], [1], on: "Category"),
        PredicateCase("todos.@sum.priority == 2", [], [3], on: "Category"),
        PredicateCase("@sum.todos.priority >= 5", [], [1, 2], on: "Category"),
        PredicateCase("todos.@avg.priority > 2", [], [2], on: "Category"),
        PredicateCase("@avg.todos.priority == 2", [], [1], on: "Category"),
        PredicateCase("todos.@min.priority < 0", [], [1], on: "Category"),
        PredicateCase("todos.@max.priority == 5", [], [2], on: "Category"),
        PredicateCase("todos.@max.ordering > 7", [], [1, 2], on: "Category"),
        PredicateCase("todos.@min.ordering == 3.5", [], [3], on: "Category"),
        PredicateCase("todos.@max.title > 'W'", [], [1], on: "Category"),
        PredicateCase("todos.@max.due != nil", [], [1, 2], on: "Category"),
        PredicateCase("todos.@sum.priority > position * 3", [], [1, 2], on: "Category"),
        PredicateCase("category.todos.@sum.priority > 5", [], [1, 2, 7, 10]),
        // SUBQUERY
        PredicateCase("SUBQUERY(todos, $t, $t.done == NO AND $t.priority > 2).@count > 0", [], [1, 2], on: "Category"),
        PredicateCase("SUBQUERY(todos, $t, $t.done == YES).@count == 2", [], [1], on: "Category"),
        PredicateCase(
            "SUBQUERY(todos, $t, $t.title BEGINSWITH[c] 'w' OR $t.priority > 4).@count >= 1", [], [1, 2],
            on: "Category"),
        PredicateCase("SUBQUERY(todos, $t, $t.priority > position).@count == 1", [], [2], on: "Category"),
        PredicateCase(
            "SUBQUERY(todos, $t, SUBQUERY($t.category.todos, $u, $u.priority > $t.priority).@count == 0).@count == 1",
            [], [1, 2], on: "Category"),
        PredicateCase("SUBQUERY(todos, $t, ANY $t.category.todos.priority == 5).@count > 0", [], [2], on: "Category"),
        PredicateCase("SUBQUERY(todos, $t, $t == 5).@count == 1", [], [2], on: "Category"),
        PredicateCase("NOT (SUBQUERY(todos, $t, $t.done == YES).@count > 0)", [], [3], on: "Category"),
        PredicateCase("SUBQUERY(category.todos, $s, $s.priority > priority).@count == 0", [], [3, 4, 5, 7, 8, 9])
    ]
}
