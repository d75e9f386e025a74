import FetchKit
import FetchKitFixtures
import Foundation

// The predicates and requests of the record checks (`ConformanceTodo`), stated once and compiled twice: here for
// the hand-written `Fixtures.LinkedTodo`, and in FetchKitMacroFixtures (through a link to this file) for the same
// records declared with `@Entity`. They cannot be generic: a key path formed through a protocol requirement is
// not the type's own key path, so it would map to no attribute. Each module names its types `CheckedTodo` and
// `CheckedCategory`.

extension CheckedTodo {
    package init(_ todo: Fixtures.TodoRecord) {
        self.init(
            id: todo.id, title: todo.title, notes: todo.notes, priority: todo.priority, ordering: todo.ordering,
            done: todo.done, due: todo.due, attachment: todo.attachment)
    }

    package static var relationshipPredicates: [(name: String, predicate: Predicate<Self>)] {
        let work = "Work"
        return [
            ("category?.name == Work", #Predicate<Self> { $0.category?.name == "Work" }),
            ("category?.name == captured", #Predicate<Self> { $0.category?.name == work }),
            ("category?.name != Work", #Predicate<Self> { $0.category?.name != "Work" }),
            ("category == nil", #Predicate<Self> { $0.category == nil }),
            ("category != nil", #Predicate<Self> { $0.category != nil }),
            ("category?.name starts(with:)", #Predicate<Self> { $0.category?.name.starts(with: "H") == true }),
            ("!done && category?.name", #Predicate<Self> { !$0.done && $0.category?.name == "Home" })
        ]
    }

    package static func openWorkTodos() throws -> FetchRequest<Self> {
        try FetchRequest(
            predicate: #Predicate { $0.category?.name == "Work" && !$0.done }, sortBy: [SortDescriptor(\.title)],
            sectionBy: \.category?.name)
    }

    package static func byTitleWithCategories() throws -> FetchRequest<Self> {
        try FetchRequest(sortBy: [SortDescriptor(\.title)]).prefetching(\.category)
    }

    package static func openByTitleWithCategories() throws -> FetchRequest<Self> {
        try FetchRequest(predicate: #Predicate { !$0.done }, sortBy: [SortDescriptor(\.title)]).prefetching(\.category)
    }

    package static func liveRequests() throws -> [FetchRequest<Self>] {
        [
            try FetchRequest(sortBy: [SortDescriptor(\.title)]),
            try FetchRequest(
                predicate: #Predicate { !$0.done },
                sortBy: [SortDescriptor(\.priority, order: .reverse), SortDescriptor(\.title)]),
            try FetchRequest(
                sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.ordering)], sectionBy: \.category?.name),
            try FetchRequest(
                predicate: #Predicate { $0.priority > 2 }, sortBy: [SortDescriptor(\.ordering, order: .reverse)],
                fetchLimit: 5),
            try FetchRequest(
                predicate: #Predicate { $0.category?.name != "Home" || $0.notes == nil },
                sortBy: [SortDescriptor(\.due), SortDescriptor(\.id, order: .reverse)], sectionBy: \.done),
            try openWorkTodos()
        ]
    }
}

extension CheckedCategory {
    package init(_ category: Fixtures.CategoryRecord) {
        self.init(id: category.id, name: category.name, position: category.position)
    }

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
