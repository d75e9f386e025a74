import FetchKitMacros

/// The fixture schema's categories declared with `@Entity`: the declaration `Fixtures.LinkedCategory` expands
/// by hand.
@Entity("Category", table: "category")
package struct MacroCategory: Equatable {
    @PrimaryKey package var id: Int64?
    @Attribute(indexed: true) package var name: String
    package var position: Int = 0
    @Relationship(inverse: \MacroTodo.category) package var todos: [MacroTodo] = []
}
