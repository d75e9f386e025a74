import FetchKit
import Foundation

extension Fixtures {
    /// Three categories: Work (1), Home (2), Errands (3).
    public static let sampleCategories: [CategoryRecord] = [
        CategoryRecord(id: 1, name: "Work", position: 0),
        CategoryRecord(id: 2, name: "Home", position: 1),
        CategoryRecord(id: 3, name: "Errands", position: 2)
    ]

    /// Ten todos with known values, covering NULLs, unicode, case and diacritics, every type.
    /// Tests that execute predicates rely on exactly these rows: change them and the expectations too.
    public static let sampleTodos: [TodoRecord] = [
        TodoRecord(
            id: 1, title: "Write report", notes: "quarterly", priority: 3, ordering: 1.0, done: false,
            due: Date(microsecondsSince1970: 1_767_225_600_000_000), categoryID: 1),
        TodoRecord(id: 2, title: "review PR", notes: nil, priority: 2, ordering: 2.0, done: true, categoryID: 1),
        TodoRecord(
            id: 3, title: "Café order", notes: "naïve résumé", priority: 1, ordering: 3.5, done: false,
            categoryID: 3),
        TodoRecord(
            id: 4, title: "Buy milk", notes: "2% fat_free", priority: 1, ordering: nil, done: false,
            categoryID: 3),
        TodoRecord(
            id: 5, title: "Fix sink", notes: nil, priority: 5, ordering: -1.0, done: false,
            attachment: Data([0, 1, 2, 255]), categoryID: 2),
        TodoRecord(
            id: 6, title: "Plan trip", notes: "Zürich", priority: 0, ordering: 10.0, done: true,
            due: Date(microsecondsSince1970: 1_700_000_000_123_456), categoryID: 2),
        TodoRecord(id: 7, title: "WRITE tests", notes: "unit", priority: 4, ordering: 4.0, done: false, categoryID: 1),
        TodoRecord(id: 8, title: "Call mom", notes: nil, priority: 2, ordering: nil, done: true, categoryID: nil),
        TodoRecord(
            id: 9, title: "日本語のタスク", notes: "emoji 🎉", priority: 3, ordering: 0.5, done: false,
            categoryID: nil),
        TodoRecord(id: 10, title: "archive", notes: "", priority: -1, ordering: 7.25, done: true, categoryID: 1)
    ]
}

extension Fixtures {
    /// Inserts ``sampleCategories`` and ``sampleTodos`` inside a write transaction.
    ///
    /// ```swift
    /// try await store.write { tx in try Fixtures.insertSampleData(tx) }
    /// ```
    public static func insertSampleData(_ tx: any WriteTransaction) throws {
        for category in sampleCategories { try tx.insert(category) }
        for todo in sampleTodos { try tx.insert(todo) }
    }
}
