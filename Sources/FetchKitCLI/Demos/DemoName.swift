import ArgumentParser
import FetchKit
import FetchKitSQLite
import FetchKitTesting

/// The scenarios `fetchkit demo` shows.
enum DemoName: String, CaseIterable, ExpressibleByArgument {
    case todos, multi, composite, reorder, batches, wire
}

/// What every seed demo starts from: an in-memory SQLite store holding the fixture todos and categories.
enum DemoStore {
    static func seeded() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        return store
    }

    /// `text` as a step heading.
    static func step(_ text: String) { print("── \(text)") }
}
