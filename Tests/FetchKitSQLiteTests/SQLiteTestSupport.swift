import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import Foundation

extension SQLiteStore.Options {
    /// Options for tests: a short busy timeout so a failure never hangs a run.
    static func testing(readers: Int = 2, busyTimeout: Duration = .seconds(2)) -> SQLiteStore.Options {
        SQLiteStore.Options(readerCount: readers, busyTimeout: busyTimeout)
    }
}

extension SQLiteStore {
    /// Inserts the fixture categories and todos.
    func seed() async throws {
        try await write { tx in
            try Fixtures.insertSampleData(tx)
        }
    }

    /// Every todo record, by primary key.
    func allTodos() async throws -> [Fixtures.TodoRecord] {
        try await fetch(
            FetchRequest(Fixtures.TodoRecord.self, sortDescriptors: [.ascending("id")]),
            as: Fixtures.TodoRecord.self)
    }

    /// How many rows `entity` holds.
    func count(of entity: String) async throws -> Int {
        try await count(FetchRequest(entity: entity))
    }
}

/// An error a write closure throws on purpose.
struct DeliberateError: Error, Equatable {}
