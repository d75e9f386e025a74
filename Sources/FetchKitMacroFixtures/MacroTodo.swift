import FetchKitMacros
import Foundation

/// The fixture schema's todos declared with `@Entity`: the declaration `Fixtures.LinkedTodo` expands by hand.
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
}
