import FetchKit
import FetchKitFixtures

/// Moves by key while another writer commits without pause (the web example's situation): the move is resolved
/// against results that another transaction may change a moment later.
extension StoreConformance {
    func checkMovesRacingWriters(on store: any PersistentStore) async throws {
        let controller = ResultsController(store: store, request: Self.reorderRequests[0])
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        async let written = Self.writeRandomly(150, to: store, seed: 99)
        var random = SeededRandom(seed: 7)
        var moved = 0
        var refused = 0
        for _ in 0..<100 {
            let snapshot = controller.snapshot
            let keys = snapshot.keys
            guard keys.count >= 2 else { break }
            let key = keys[random.int(0..<keys.count)]
            let destination: MoveDestination =
                random.int(0..<3) == 0
                ? .endOfSection(snapshot.sections[random.int(0..<snapshot.sections.count)].name)
                : .before(keys[random.int(0..<keys.count)])
            do {
                try await controller.moveObject(withKey: key, to: destination)
                moved += 1
            } catch let error as FetchKitError where error.code == .invalidValue || error.code == .constraintViolation {
                // The row, its neighbour or its new section's row left meanwhile: nothing was written.
                refused += 1
            }
        }
        _ = try await written
        await controller.sync()
        try recorder.checkCallbackOrder()
        for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        try expect(moved > 50, "only \(moved) of 100 moves ran (\(refused) refused)")
    }

    /// `count` random transactions from a generator seeded with `seed`.
    private static func writeRandomly(_ count: Int, to store: any PersistentStore, seed: UInt64) async throws -> Int {
        var random = SeededRandom(seed: seed)
        return try await RandomOperation.writeTransactions(count, to: store, using: &random)
    }
}
