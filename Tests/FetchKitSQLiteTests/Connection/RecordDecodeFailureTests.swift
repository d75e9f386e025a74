import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Testing

/// A row the record type cannot decode — another writer stored text in an integer column, which SQLite's
/// dynamic typing allows — stops a typed controller with a ``FetchKitError/Code/recordMapping``
/// error: never a silently stale list, never a list without the row.
@Suite("Live records when another writer stores a value the record cannot decode")
struct RecordDecodeFailureTests {
    final class Failures: ResultsControllerDelegate, Sendable {
        typealias Object = Fixtures.TodoRecord
        let recorder = ResultsRecorder<Fixtures.TodoRecord>()
        func controller(_ controller: ResultsController<Fixtures.TodoRecord>, didFailWith error: FetchKitError) {
            recorder.controller(controller, didFailWith: error)
        }
    }

    @Test(
        "text in an integer column: the controller fails with recordMapping; fixing the row and refetching restarts it")
    func undecodableRowStopsTheController() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let controller = ResultsController(
            store: store, request: FetchRequest(Fixtures.TodoRecord.self, sortDescriptors: [.ascending("id")]))
        let delegate = Failures()
        controller.delegate = delegate
        try await controller.performFetch()
        let before = controller.fetchedObjects
        try await store.write { tx in _ = try tx.execute(#"UPDATE "todo" SET "priority" = 'high' WHERE "id" = 1"#, []) }
        await controller.sync()
        guard case .failed(let error) = controller.status, error.code == .recordMapping, let entity = error.entity
        else {
            Issue.record("status \(controller.status)")
            return
        }
        let detail = error.message
        #expect(entity == "Todo" && detail.contains("priority"), "error: \(entity): \(detail)")
        #expect(delegate.recorder.failures.count == 1)
        #expect(controller.fetchedObjects == before, "a failed change was half applied")
        try await store.write { tx in _ = try tx.execute(#"UPDATE "todo" SET "priority" = 3 WHERE "id" = 1"#, []) }
        try await controller.performFetch()
        // The fixing write's own change may still be on its way (on a loaded machine, over a second): once it is
        // applied the status says live rather than catching up.
        await controller.sync()
        #expect(controller.status == .live)
        #expect(controller.fetchedObjects.first?.priority == 3)
        await store.close()
    }
}
