import FetchKitMacroFixtures

/// The demos' todos: the fixture schema's todos declared with `@Entity`.
typealias Todo = MacroTodo

/// The demos' categories, the destination of `Todo.category`.
typealias Category = MacroCategory
