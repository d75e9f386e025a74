import FetchKitMacros
import Foundation

/// The fixture schema's todos declared with `@Entity`, each with its category: the `fetchkit` demos' todos, and
/// the records the conformance and macro tests run the record checks through.
@Entity("Todo", table: "todo")
package struct MacroTodo: Equatable {
    @PrimaryKey package var id: Int64?
    @Attribute(indexed: true) package var title: String
    package var notes: String?
    package var priority: Int = 0
    @Attribute(indexed: true) package var ordering: Double?
    package var done: Bool = false
    package var due: Date?
    package var attachment: Data?
    @Relationship(column: "category_id") package var category: MacroCategory?

    /// A todo; `category` sets its category's key (a record named by its key will do).
    package init(
        id: Int64? = nil, title: String, notes: String? = nil, priority: Int = 0, ordering: Double? = nil,
        done: Bool = false, due: Date? = nil, attachment: Data? = nil, category: MacroCategory? = nil
    ) {
        self.id = id
        self.title = title
        self.notes = notes
        self.priority = priority
        self.ordering = ordering
        self.done = done
        self.due = due
        self.attachment = attachment
        self.category = category
    }
}
