import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation

/// A directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

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

/// The `fetchkit` binary built beside this test binary.
enum FetchKitBinary {
    static var url: URL {
        get throws { try BuildProducts.executable("fetchkit") }
    }

    /// Runs it with `arguments` to the end: its exit status, and its standard output and error together.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ChildProcess.run(try url, arguments)
    }
}
