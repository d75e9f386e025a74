import FetchKit
import FetchKitFixtures

/// The demos' todos: a record as `@Entity` writes it, written by hand (`fetchkit` builds without swift-syntax).
typealias Todo = Fixtures.LinkedTodo

/// The demos' categories, the destination of `Todo.category`.
typealias Category = Fixtures.LinkedCategory
