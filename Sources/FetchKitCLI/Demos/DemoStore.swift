import FetchKit
import FetchKitFixtures
import FetchKitSQLite

/// What every scenario demo starts from: an in-memory SQLite store holding the fixture todos and categories.
enum DemoStore {
    static func seeded() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory(schema: try Schema([Category.entity, Todo.entity]))
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        return store
    }

    /// `text` as a step heading.
    static func step(_ text: String) { print("── \(text)") }
}
