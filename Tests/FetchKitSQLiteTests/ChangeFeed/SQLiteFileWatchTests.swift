import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// A database file deleted or replaced under an open store: SQLite would go on writing into the file it opened,
/// which no one can open again. The store notices (on its data-version poll, and before every write), refuses
/// every later write and read with `storeFileMissing`, and its live controllers fail saying so.
@Suite("SQLite: the database file deleted or replaced under an open store")
struct SQLiteFileWatchTests {
    private static let requests = [
        FetchRequest(entity: "Todo", predicate: .key("done") == false, sortDescriptors: [.ascending("title")]),
        FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("done"), .ascending("id")], sectionNameKeyPath: "done")
    ]

    /// A seeded store at `path`, polling `data_version` every `poll`, with live controllers that have followed
    /// one write (checked against a fresh fetch and ListSimulator).
    private func liveStore(at path: String, poll: Duration?) async throws -> (
        SQLiteStore, [(controller: ResultsController<Row>, recorder: ResultsRecorder<Row>)]
    ) {
        let store = try await SQLiteStore.open(
            path: path, schema: Fixtures.schema,
            options: SQLiteStore.Options(readerCount: 2, busyTimeout: .seconds(2), dataVersionPollInterval: poll))
        try await store.seed()
        let controllers = try await StoreConformance.liveControllers(on: store, requests: Self.requests)
        try await store.write { tx in try tx.insert(Fixtures.TodoRecord(title: "before", done: false)) }
        for (controller, recorder) in controllers {
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        }
        return (store, controllers)
    }

    /// Waits until every controller has failed, then checks each failed with `storeFileMissing` naming `path`
    /// and kept the results it had.
    private func expectFailed(
        _ controllers: [(controller: ResultsController<Row>, recorder: ResultsRecorder<Row>)], path: String
    ) async throws {
        let before = controllers.map(\.controller.fetchedObjects)
        let deadline = ContinuousClock.now + .seconds(30)
        func allFailed() -> Bool {
            controllers.allSatisfy { if case .failed = $0.controller.status { true } else { false } }
        }
        while !allFailed(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        for (index, (controller, recorder)) in controllers.enumerated() {
            guard case .failed(let error) = controller.status else {
                Issue.record("controller \(index) is \(controller.status), not failed")
                continue
            }
            #expect(error.code == .storeFileMissing && error.message.contains(path), "\(error)")
            #expect(!error.isTransient)
            #expect(recorder.failures.map(\.code) == [.storeFileMissing], "\(recorder.failures)")
            #expect(controller.fetchedObjects == before[index], "a failed controller changed its results")
            try recorder.checkCallbackOrder()
        }
    }

    /// Checks that a write and a fetch on `store` throw `storeFileMissing`.
    private func expectRefused(_ store: SQLiteStore) async throws {
        let write = await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.insert(Fixtures.TodoRecord(title: "after")) }
        }
        #expect(write?.code == .storeFileMissing, "\(String(describing: write))")
        let fetch = await #expect(throws: FetchKitError.self) { try await store.allTodos() }
        #expect(fetch?.code == .storeFileMissing, "\(String(describing: fetch))")
    }

    /// Polling on, the poll notices the deletion before anything else; polling off, the next write does.
    @Test(
        "deleted: the poll, or else the next write, notices; controllers fail; writes and fetches throw",
        arguments: [true, false])
    func deleted(polling: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("todos.sqlite")
        let (store, controllers) = try await liveStore(at: path, poll: polling ? .milliseconds(20) : nil)
        try FileManager.default.removeItem(atPath: path)
        if polling {
            try await expectFailed(controllers, path: path)
            try await expectRefused(store)
        } else {
            try await expectRefused(store)
            try await expectFailed(controllers, path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path), "a refused write created the file again")
        for (controller, _) in controllers { controller.delegate = nil }
        await store.close()
    }

    @Test("replaced by another database renamed over it: the same")
    func replaced() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("todos.sqlite")
        let other = directory.path("other.sqlite")
        let (store, controllers) = try await liveStore(at: path, poll: .milliseconds(20))
        let replacement = try await SQLiteStore.open(path: other, schema: Fixtures.schema, options: .testing())
        try await replacement.seed()
        await replacement.close()
        #expect(rename(other, path) == 0, "rename: errno \(errno)")
        try await expectFailed(controllers, path: path)
        try await expectRefused(store)
        await store.close()
        // The refused write went nowhere. (What the file holds now is SQLite's business: the first store's
        // write-ahead log is still beside it, and SQLite reads it with the new file.)
        let reopened = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: .testing())
        let titles = try await reopened.allTodos().map(\.title)
        #expect(!titles.contains("after"), "\(titles)")
        await reopened.close()
        for (controller, _) in controllers { controller.delegate = nil }
    }

    @Test("an in-memory store has no file to watch: writes go on")
    func inMemory() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        try await store.write { tx in try tx.insert(Fixtures.TodoRecord(title: "more")) }
        #expect(try await store.count(of: "Todo") == 11)
        await store.close()
    }
}
