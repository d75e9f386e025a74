import FetchKit
import FetchKitMacroFixtures
import FetchKitTesting
import Foundation

// The predicates and requests the record checks run through the fixture categories declared with `@Entity`
// (see MacroTodo+ConformanceTodo.swift).
extension MacroCategory: ConformanceCategory {
    package typealias Todo = MacroTodo

    package static var relationshipPredicates: [(name: String, predicate: Predicate<Self>)] {
        [
            ("todos.contains priority > 3", #Predicate<Self> { $0.todos.contains { $0.priority > 3 } }),
            (
                "todos.contains done && priority",
                #Predicate<Self> { $0.todos.contains { $0.done && $0.priority >= 2 } }
            ),
            ("todos.contains title", #Predicate<Self> { $0.todos.contains { $0.title.contains("milk") } }),
            ("todos.allSatisfy done", #Predicate<Self> { $0.todos.allSatisfy { $0.done } }),
            ("!todos.allSatisfy", #Predicate<Self> { !$0.todos.allSatisfy { $0.priority > 0 } }),
            ("todos.count > 2", #Predicate<Self> { $0.todos.count > 2 }),
            ("todos.count == 0", #Predicate<Self> { $0.todos.count == 0 }),
            ("todos.isEmpty", #Predicate<Self> { $0.todos.isEmpty }),
            ("!todos.isEmpty", #Predicate<Self> { !$0.todos.isEmpty }),
            ("name || todos", #Predicate<Self> { $0.name == "Home" || $0.todos.count >= 5 })
        ]
    }

    package static func liveRequests() throws -> [FetchRequest<Self>] {
        [
            try FetchRequest(
                predicate: #Predicate { $0.todos.contains { !$0.done } }, sortBy: [SortDescriptor(\.name)]),
            try FetchRequest(
                predicate: #Predicate { $0.todos.count >= 2 }, sortBy: [SortDescriptor(\.position, order: .reverse)],
                sectionBy: \.name)
        ]
    }
}
