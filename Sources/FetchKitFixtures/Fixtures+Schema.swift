import FetchKit
import Foundation

/// Shared fixtures: the todo-list schema every backend's tests and the demo use.
///
/// - `Category` (integer key): `name`, `position`; to-many `todos`.
/// - `Todo` (integer key): `title`, `notes?`, `priority`, `ordering?` (double), `done`, `due?` (date),
///   `attachment?` (binary), `categoryID?` → to-one `category`.
/// - `Note` (text key `slug`): `body`, `pinned`.
public enum Fixtures {
    /// The `Category` entity.
    public static let category = Entity(
        "Category", table: "category", primaryKey: .integer("id"),
        attributes: [
            Attribute("name", .text, indexed: true),
            Attribute("position", .integer, default: 0)
        ],
        relationships: [.toMany("todos", to: "Todo", inverse: "category")])

    /// The `Todo` entity.
    public static let todo = Entity(
        "Todo", table: "todo", primaryKey: .integer("id"),
        attributes: [
            Attribute("title", .text, indexed: true),
            Attribute("notes", .text, optional: true),
            Attribute("priority", .integer, default: 0),
            Attribute("ordering", .double, optional: true, indexed: true),
            Attribute("done", .bool, default: false),
            Attribute("due", .date, optional: true),
            Attribute("attachment", .binary, optional: true),
            Attribute("categoryID", .integer, optional: true, column: "category_id")
        ],
        relationships: [.toOne("category", to: "Category", foreignKey: "categoryID")])

    /// The `Note` entity, keyed by text.
    public static let note = Entity(
        "Note", table: "note", primaryKey: .text("slug"),
        attributes: [
            Attribute("body", .text),
            Attribute("pinned", .bool, default: false)
        ])

    /// The schema of `Category`, `Todo` and `Note`.
    public static let schema: Schema = {
        do {
            return try Schema([category, todo, note])
        } catch {
            preconditionFailure("the fixture schema is inconsistent: \(error)")
        }
    }()
}
