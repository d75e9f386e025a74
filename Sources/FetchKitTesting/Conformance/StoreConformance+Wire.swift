import FetchKit
import FetchKitFixtures
import Foundation

/// Seed 004: every batch, sent as a wire changeset (JSON) and applied by the Swift reference client
/// (`WireList`), reproduces the controller's results exactly — typed records, sections, moves, updates.
extension StoreConformance {
    /// The wire checks.
    static var wireChecks: [Check] {
        [
            Check(
                name: "wire: batches as JSON, applied by the reference client, reproduce the results",
                body: { try await $0.checkWireClient(on: $1) })
        ]
    }

    func checkWireClient(on store: any PersistentStore) async throws {
        let requests = Self.liveRequests.filter { $0.entityName == "Todo" }
        var clients:
            [(ResultsController<Fixtures.TodoRecord>, ChangesetRecorder<ResultsController<Fixtures.TodoRecord>>)] = []
        var lists: [WireList<Fixtures.TodoRecord>] = []
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for request in requests {
            let controller = ResultsController(
                store: store, request: try FetchRequest<Fixtures.TodoRecord>(request.erased))
            let recorder = ChangesetRecorder<ResultsController<Fixtures.TodoRecord>>()
            controller.delegate = recorder
            try await controller.performFetch()
            var list = WireList<Fixtures.TodoRecord>()
            let first = try encoder.encode(WireChangeset(inserting: controller.snapshot))
            try list.apply(try decoder.decode(WireChangeset<Fixtures.TodoRecord>.self, from: first))
            clients.append((controller, recorder))
            lists.append(list)
        }
        var random = SeededRandom(seed: 0x3173)
        var batches = 0
        for step in 0..<300 {
            try await RandomOperation.writeTransactions(1, to: store, using: &random)
            for (index, (controller, recorder)) in clients.enumerated() {
                await controller.sync()
                for update in recorder.takeBatches() {
                    let message = try encoder.encode(WireChangeset(update))
                    do {
                        try lists[index].apply(
                            try decoder.decode(WireChangeset<Fixtures.TodoRecord>.self, from: message))
                    } catch {
                        throw ConformanceFailure(
                            "step \(step), request \(index): \(error); batch "
                                + "\(String(decoding: message, as: UTF8.self)); "
                                + "client had \(lists[index].sections.map { ($0.name, $0.objects.map(\.id)) })")
                    }
                    batches += 1
                }
                let sections = controller.sections
                let list = lists[index].sections
                try expect(
                    list.map(\.name) == sections.map(\.name)
                        && list.map(\.objects) == sections.map { Array($0.objects) },
                    "step \(step), request \(index): the client holds \(list.map(\.objects.count)), "
                        + "the controller \(sections.map(\.numberOfObjects))")
            }
        }
        try expect(batches > 300, "only \(batches) batches")
        // A client that missed a batch finds out.
        var stale = WireList<Fixtures.TodoRecord>()
        do {
            try stale.apply(
                WireChangeset(
                    transactionID: nil, sectionCountsBefore: [3], sectionCountsAfter: [3], sectionDeletes: [],
                    sectionInserts: [],
                    sectionMoves: [], rowDeletes: [], rowInserts: [], rowMoves: [], rowUpdates: []))
            throw ConformanceFailure("a client out of step applied a batch")
        } catch is WireList<Fixtures.TodoRecord>.Mismatch {}
    }
}
