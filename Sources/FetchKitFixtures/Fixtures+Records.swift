import FetchKit
import Foundation

extension Fixtures {
    /// A typed `Category` record.
    public struct CategoryRecord: Record, Equatable {
        public static let entity = Fixtures.category
        public var id: Int64?
        public var name: String
        public var position: Int

        public init(id: Int64? = nil, name: String, position: Int = 0) {
            self.id = id
            self.name = name
            self.position = position
        }
    }

    /// A typed `Todo` record; `categoryID` maps to the `category_id` column through the entity.
    public struct TodoRecord: Record, Equatable {
        public static let entity = Fixtures.todo
        public var id: Int64?
        public var title: String
        public var notes: String?
        public var priority: Int
        public var ordering: Double?
        public var done: Bool
        public var due: Date?
        public var attachment: Data?
        public var categoryID: Int64?

        public init(
            id: Int64? = nil, title: String, notes: String? = nil, priority: Int = 0, ordering: Double? = nil,
            done: Bool = false, due: Date? = nil, attachment: Data? = nil, categoryID: Int64? = nil
        ) {
            self.id = id
            self.title = title
            self.notes = notes
            self.priority = priority
            self.ordering = ordering
            self.done = done
            self.due = due
            self.attachment = attachment
            self.categoryID = categoryID
        }
    }

    /// A typed `Note` record with a text primary key.
    public struct NoteRecord: Record, Equatable {
        public static let entity = Fixtures.note
        public var slug: String
        public var body: String
        public var pinned: Bool

        public init(slug: String, body: String, pinned: Bool = false) {
            self.slug = slug
            self.body = body
            self.pinned = pinned
        }
    }
}
