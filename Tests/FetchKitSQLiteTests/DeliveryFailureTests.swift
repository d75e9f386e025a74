import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Synchronization
import Testing

@testable import FetchKit

/// A batch that cannot be built for a view — a state the controller never reaches unless FetchKit has a bug —
/// stops the controller through its failure channel with an `inconsistency` error; it is never dropped
/// silently. Each test forces one such path by giving a view results whose sections repeat (the keyed diff
/// refuses them).
@Suite("Delivery failures")
struct DeliveryFailureTests {
    static let request = FetchRequest(
        entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
        sectionNameKeyPath: "category.name")

    /// A store with the sample data and a controller of ``request``.
    private func fetched() async throws -> (SQLiteStore, ResultsController<Row>) {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        let controller = ResultsController(store: store, request: Self.request)
        try await controller.performFetch()
        return (store, controller)
    }

    /// Results whose section "A" appears twice: no diff can start from them.
    private static func brokenResults() -> ResultsSnapshot<Row> {
        let rows: [Row] = [["id": 101, "s": "A"], ["id": 102, "s": "B"], ["id": 103, "s": "A"]]
        return ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: "s", order: nil)
    }

    private func insertTodo(_ store: SQLiteStore) async throws {
        try await store.write { tx in
            _ = try tx.insert(
                ["title": "new", "priority": 1, "done": false, "categoryID": 2, "ordering": 9.0], into: "Todo")
        }
    }

    private func expectInconsistency(_ status: ResultsStatus) {
        guard case .failed(let error) = status else {
            Issue.record("the controller should have failed, its status is \(status)")
            return
        }
        #expect(error.code == .inconsistency)
    }

    @Test func delegateBatchThatCannotBeBuiltFailsTheController() async throws {
        let (store, controller) = try await fetched()
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        controller.state.withLock { $0.machine.delegateShown = Self.brokenResults() }
        try await insertTodo(store)
        await controller.sync()
        expectInconsistency(controller.status)
        #expect(recorder.failures.map(\.code) == [.inconsistency])
        #expect(recorder.updates.isEmpty)
    }

    @Test func sequenceBatchThatCannotBeBuiltEndsTheSequenceAndFailsTheController() async throws {
        let (store, controller) = try await fetched()
        let updates = controller.updates()
        var iterator = updates.makeAsyncIterator()
        let initial = try await iterator.next()
        #expect(initial?.changeset == nil)
        updates.subscription.buffer.state.withLock { $0.machine.shown = Self.brokenResults() }
        try await insertTodo(store)
        await controller.sync()
        do {
            while try await iterator.next() != nil {}
            Issue.record("the sequence ended without an error")
        } catch {
            #expect(error.code == .inconsistency)
        }
        expectInconsistency(controller.status)
    }

    @Test func followerBatchThatCannotBeBuiltFailsTheFollower() async throws {
        let (store, first) = try await fetched()
        let second = ResultsController(store: store, request: Self.request)
        try await second.performFetch()
        let follower = first.state.withLock { $0.sharing.ledGroup != nil } ? second : first
        #expect(follower.state.withLock { $0.sharing.isFollower })
        follower.state.withLock { state in
            state.machine.results = Self.brokenResults()
            _ = state.machine.handle(.sharedVersion(nil), at: .now)
        }
        try await insertTodo(store)
        await follower.sync()
        expectInconsistency(follower.status)
    }

    @Test func compositeChangeThatCannotBeTranslatedStopsTheComposite() async throws {
        let (store, controller) = try await fetched()
        let composite = CompositeResultsController()
        _ = try composite.add(controller)
        let recorder = CompositeFailures()
        composite.delegate = recorder
        try await composite.performFetch()
        // What the composite last showed of the part cannot be diffed from.
        composite.state.withLock { $0.machine.latest[0].window = Self.brokenResults() }
        try await insertTodo(store)
        await controller.sync()
        for _ in 0..<200 where recorder.failures.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(recorder.failures.map(\.code) == [.inconsistency])
        expectInconsistency(composite.status)
    }
}

/// Records a composite's failures.
private final class CompositeFailures: ResultsControllerDelegate, Sendable {
    private let recorded = Mutex<[FetchKitError]>([])
    var failures: [FetchKitError] { recorded.withLock { $0 } }

    func controller(_ controller: CompositeResultsController, didFailWith error: FetchKitError) {
        recorded.withLock { $0.append(error) }
    }
}
