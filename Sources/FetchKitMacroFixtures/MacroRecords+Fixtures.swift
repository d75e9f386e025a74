import FetchKitFixtures

extension MacroTodo {
    /// The todo `todo` of the fixtures (``Fixtures/sampleTodos``), its category not loaded.
    package init(_ todo: Fixtures.TodoRecord) {
        self.init(
            id: todo.id, title: todo.title, notes: todo.notes, priority: todo.priority, ordering: todo.ordering,
            done: todo.done, due: todo.due, attachment: todo.attachment)
    }
}

extension MacroCategory {
    /// The category `category` of the fixtures (``Fixtures/sampleCategories``), its todos not loaded.
    package init(_ category: Fixtures.CategoryRecord) {
        self.init(id: category.id, name: category.name, position: category.position)
    }
}
