import FetchKit
import Foundation

extension Fixtures {
    /// The fixture schema's categories with their todos, conforming to `EntityRecord` by hand as the `@Entity`
    /// macro would (this target builds without the macro).
    public struct LinkedCategory: EntityRecord, Equatable {
        public static let entity = Fixtures.category
        public var id: Int64?
        public var name: String
        public var position = 0
        public var todos: [LinkedTodo] = []

        public init(id: Int64? = nil, name: String, position: Int = 0) {
            self.id = id
            self.name = name
            self.position = position
        }

        public init(row: borrowing RecordRow) throws {
            id = try row["id"]
            name = try row["name"]
            position = try row["position"]
        }

        public static func storedMember(for keyPath: AnyKeyPath) -> StoredMember? {
            if keyPath == \LinkedCategory.id as AnyKeyPath { return .attribute("id") }
            if keyPath == \LinkedCategory.name as AnyKeyPath { return .attribute("name") }
            if keyPath == \LinkedCategory.position as AnyKeyPath { return .attribute("position") }
            if keyPath == \LinkedCategory.todos as AnyKeyPath { return .toMany("todos", destination: LinkedTodo.self) }
            return nil
        }

        public static var optionalChainKeyPaths: [(keyPath: AnyKeyPath, attribute: String)] {
            [
                (\LinkedCategory?.?.id, "id"), (\LinkedCategory?.?.name, "name"),
                (\LinkedCategory?.?.position, "position")
            ]
        }

        public func attributeValues() -> [Value] { [id.databaseValue, .text(name), .integer(Int64(position))] }
    }

    /// The fixture schema's todos with their categories, conforming to `EntityRecord` by hand as the `@Entity`
    /// macro would.
    public struct LinkedTodo: EntityRecord, Equatable {
        public static let entity = Fixtures.todo
        public var id: Int64?
        public var title: String
        public var notes: String?
        public var priority: Int
        public var ordering: Double?
        public var done: Bool
        public var categoryID: Int64?
        /// The related category, when fetched or set (its key is then ``categoryID``'s).
        public var category: LinkedCategory?

        /// A todo like a ``TodoRecord``.
        public init(_ todo: TodoRecord) {
            id = todo.id
            title = todo.title
            notes = todo.notes
            priority = todo.priority
            ordering = todo.ordering
            done = todo.done
            categoryID = todo.categoryID
        }

        public init(row: borrowing RecordRow) throws {
            id = try row["id"]
            title = try row["title"]
            notes = try row["notes"]
            priority = try row["priority"]
            ordering = try row["ordering"]
            done = try row["done"]
            categoryID = try row["categoryID"]
        }

        public static func storedMember(for keyPath: AnyKeyPath) -> StoredMember? {
            let attributes: [(AnyKeyPath, String)] = [
                (\LinkedTodo.id, "id"), (\LinkedTodo.title, "title"), (\LinkedTodo.notes, "notes"),
                (\LinkedTodo.priority, "priority"), (\LinkedTodo.ordering, "ordering"), (\LinkedTodo.done, "done"),
                (\LinkedTodo.categoryID, "categoryID")
            ]
            if let name = attributes.first(where: { $0.0 == keyPath })?.1 { return .attribute(name) }
            if keyPath == \LinkedTodo.category as AnyKeyPath {
                return .toOne("category", destination: LinkedCategory.self)
            }
            return nil
        }

        public static func storedPath(for keyPath: AnyKeyPath) -> String? {
            storedMember(for: keyPath)?.name ?? storedPath(for: keyPath, through: \.category, named: "category")
        }

        public static var toOneRelationships: [ToOneRelationship<LinkedTodo>] {
            [ToOneRelationship("category", \.category)]
        }

        public func attributeValues() -> [Value] {
            [
                id.databaseValue, .text(title), notes.databaseValue, .integer(Int64(priority)), ordering.databaseValue,
                .bool(done), .null, .null, (category?.id ?? categoryID).databaseValue
            ]
        }
    }

    /// The sample categories and todos as linked records: each todo holds its category, and each category its
    /// todos (whose categories are left out), as `Predicate.evaluate` needs them.
    public static func linkedSample() -> (categories: [LinkedCategory], todos: [LinkedTodo]) {
        var categories = sampleCategories.map { LinkedCategory(id: $0.id, name: $0.name, position: $0.position) }
        let plain = sampleTodos.map(LinkedTodo.init)
        for index in categories.indices {
            categories[index].todos = plain.filter { $0.categoryID == categories[index].id }
        }
        let todos = plain.map { todo in
            var linked = todo
            linked.category = categories.first { $0.id == todo.categoryID }
            return linked
        }
        return (categories, todos)
    }
}
