import FetchKitTesting

/// The todo record type the repository's conformance tests run the record checks through again: declared with
/// `@Entity`.
typealias CheckedTodo = MacroTodo
/// The category record type of ``CheckedTodo``.
typealias CheckedCategory = MacroCategory

// The predicates and requests are in CheckedRecords+Statements.swift, a link to FetchKitTesting's.
extension MacroTodo: ConformanceTodo {
    package typealias Category = MacroCategory
}

extension MacroCategory: ConformanceCategory {
    package typealias Todo = MacroTodo
}
