import FetchKitMacros

/// The fixture schema's categories declared with `@Entity`, each with its todos: the destination of
/// `MacroTodo.category`.
@Entity("Category", table: "category")
package struct MacroCategory: Equatable {
    @PrimaryKey package var id: Int64?
    @Attribute(indexed: true) package var name: String
    package var position: Int = 0
    @Relationship(inverse: \MacroTodo.category) package var todos: [MacroTodo] = []

    /// A category, its todos not loaded.
    package init(id: Int64? = nil, name: String, position: Int = 0) {
        self.id = id
        self.name = name
        self.position = position
    }
}
