import FetchKit
import FetchKitFixtures
import Foundation

/// A record type of the fixture schema's todos, with its category type: what the record checks
/// (``StoreConformance/Check/records(_:)``) run through.
///
/// Key paths and `#Predicate`s name a concrete type (a key path formed through a protocol requirement is not
/// the type's own, so it maps to no attribute), so each conforming type states its predicates and requests;
/// the checks are generic. The repository's conformance tests conform the fixture records declared with
/// `@Entity`.
package protocol ConformanceTodo: EntityRecord, Equatable {
    /// The record type of the fixture schema's categories this todo's `category` holds.
    associatedtype Category: ConformanceCategory where Category.Todo == Self

    /// The primary key.
    var id: Int64? { get }
    /// The related category, when loaded.
    var category: Category? { get set }

    /// The todo `todo` of the fixtures, its category not loaded.
    init(_ todo: Fixtures.TodoRecord)

    /// Predicates over todos that read their category, each named.
    static var relationshipPredicates: [(name: String, predicate: Predicate<Self>)] { get }

    /// The open todos of the category named Work, by title, sectioned by their category's name.
    static func openWorkTodos() throws -> FetchRequest<Self>

    /// Every todo by title, each with its category prefetched (`.prefetching(\.category)`).
    static func byTitleWithCategories() throws -> FetchRequest<Self>

    /// The open todos by title, each with its category prefetched.
    static func openByTitleWithCategories() throws -> FetchRequest<Self>

    /// Requests of live controllers of todos: `#Predicate`s, descending and NULL sorts, key-path sections
    /// through the category, a limit.
    static func liveRequests() throws -> [FetchRequest<Self>]
}

/// A record type of the fixture schema's categories, with its todo type (see ``ConformanceTodo``).
package protocol ConformanceCategory: EntityRecord, Equatable {
    /// The record type of the fixture schema's todos this category's `todos` holds.
    associatedtype Todo: EntityRecord, Equatable

    /// The primary key.
    var id: Int64? { get }
    /// The category's name.
    var name: String { get }
    /// The category's todos, when loaded.
    var todos: [Todo] { get set }

    /// The category `category` of the fixtures, its todos not loaded.
    init(_ category: Fixtures.CategoryRecord)

    /// Predicates over categories that read their todos, each named.
    static var relationshipPredicates: [(name: String, predicate: Predicate<Self>)] { get }

    /// Requests of live controllers of categories: `#Predicate`s over their todos.
    static func liveRequests() throws -> [FetchRequest<Self>]
}

extension ConformanceTodo {
    /// The sample categories and todos linked in memory, as `Predicate.evaluate` needs them: each todo holds
    /// its category, and each category its todos (whose categories are left out).
    static func linkedSample() -> (categories: [Category], todos: [Self]) {
        let plain = Fixtures.sampleTodos.map { (categoryID: $0.categoryID, todo: Self($0)) }
        let categories = Fixtures.sampleCategories.map { record in
            var category = Category(record)
            category.todos = plain.filter { $0.categoryID == record.id }.map(\.todo)
            return category
        }
        let todos = plain.map { categoryID, todo in
            var linked = todo
            linked.category = categories.first { $0.id == categoryID }
            return linked
        }
        return (categories, todos)
    }
}
