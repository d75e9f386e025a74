import FetchKit
import FetchKitMacroFixtures
import FetchKitTesting
import Foundation

// The predicates and requests the record checks (`StoreConformance.Check.records(_:)`) run through the fixture
// todos declared with `@Entity`. They cannot be generic: a key path formed through a protocol requirement is not
// the type's own key path, so it would map to no attribute.
extension MacroTodo: ConformanceTodo {
    package typealias Category = MacroCategory

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
