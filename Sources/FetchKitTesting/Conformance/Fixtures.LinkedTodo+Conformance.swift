import FetchKit
import FetchKitFixtures

/// The todo record type the record checks of ``StoreConformance/Check/all`` run through: hand-written, as
/// `@Entity` would write it.
typealias CheckedTodo = Fixtures.LinkedTodo
/// The category record type of ``CheckedTodo``.
typealias CheckedCategory = Fixtures.LinkedCategory

// The predicates and requests are in CheckedRecords+Statements.swift.
extension Fixtures.LinkedTodo: ConformanceTodo {
    package typealias Category = Fixtures.LinkedCategory
}

extension Fixtures.LinkedCategory: ConformanceCategory {
    package typealias Todo = Fixtures.LinkedTodo
}
