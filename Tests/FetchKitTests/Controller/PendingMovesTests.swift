import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Testing

@testable import FetchKit

/// The moves a view made and the controller has not written yet, replayed on new results in order.
@Suite("Pending moves")
struct PendingMovesTests {
    /// Results of one section holding `keys`, in order.
    private func results(_ keys: [Int64]) -> ResultsSnapshot<Row> {
        let rows: [Row] = keys.map { ["id": .integer($0)] }
        return ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: nil, order: nil)
    }

    /// Moves `move.key` before its destination row, or to the end; `nil` when a row is missing.
    private func place(_ base: ResultsSnapshot<Row>, _ move: PendingMoves.Move) -> ResultsSnapshot<Row>? {
        var keys = base.keys.compactMap { value -> Int64? in if case .integer(let k) = value { k } else { nil } }
        guard case .integer(let key) = move.key, let from = keys.firstIndex(of: key) else { return nil }
        keys.remove(at: from)
        switch move.destination {
        case .before(.integer(let next)):
            guard let to = keys.firstIndex(of: next) else { return nil }
            keys.insert(key, at: to)
        case .before: return nil
        case .endOfSection: keys.append(key)
        }
        return results(keys)
    }

    @Test func replaysEveryMoveInOrder() {
        var moves = PendingMoves()
        let first = moves.add(key: 3, destination: .before(1))
        let second = moves.add(key: 1, destination: .endOfSection(""))
        #expect(first != second)
        let moved = moves.applied(to: results([1, 2, 3, 4]), place)
        #expect(moved.keys == [3, 2, 4, 1])
    }

    @Test func withoutMovesTheResultsAreUntouched() {
        let moves = PendingMoves()
        let base = results([1, 2])
        #expect(moves.isEmpty)
        #expect(moves.applied(to: base, place).isIdentical(to: base))
    }

    @Test func aMoveWhoseNeighbourLeftIsSkipped() {
        var moves = PendingMoves()
        _ = moves.add(key: 4, destination: .before(9))
        _ = moves.add(key: 1, destination: .before(3))
        #expect(moves.applied(to: results([1, 2, 3, 4]), place).keys == [2, 1, 3, 4])
    }

    @Test func aSettledMoveIsNoLongerReplayed() {
        var moves = PendingMoves()
        let id = moves.add(key: 4, destination: .before(1))
        _ = moves.add(key: 2, destination: .endOfSection(""))
        moves.remove(id)
        #expect(moves.moves.map(\.key) == [2])
        #expect(moves.applied(to: results([1, 2, 3, 4]), place).keys == [1, 3, 4, 2])
    }

    /// A view dropped todo 1 at the end of Home; then Home's other todos left it, so the results have no Home
    /// section. The view still shows Home, holding todo 1: the move is replayed into that section, not dropped
    /// (which would send the row back, only for the move's write to bring it into Home again).
    @Test func aMoveToTheEndOfASectionTheResultsLostKeepsTheSection() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let request = FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
            sectionNameKeyPath: "category.name")
        let controller = ResultsController(store: store, request: request)
        try await controller.performFetch()
        let before = controller.snapshot
        let (from, to) = try controller.resolve(.key(1, .endOfSection("Home")), in: before)
        let view = try #require(try controller.planMove(from: from, to: to, in: before, request: request.erased)).shown
        var moves = PendingMoves()
        _ = moves.add(key: 1, destination: .endOfSection("Home"))
        try await store.write { tx in
            _ = try tx.update("Todo", key: 5, set: ["categoryID": 3])
            _ = try tx.update("Todo", key: 6, set: ["categoryID": 3])
        }
        await controller.sync()
        #expect(controller.snapshot.sectionNames == ["", "Errands", "Work"])
        let moved = controller.results(controller.snapshot, with: moves, request: request.erased, view: view)
        #expect(moved.snapshot.sectionNames == ["", "Errands", "Home", "Work"])
        #expect(moved.snapshot.sections[2].objects.map { $0["id"] ?? .null } == [1])
        #expect(!moved.snapshot.sections[3].objects.contains { $0["id"] == 1 })
        #expect(moved.unplaced.isEmpty)
        await store.close()
    }
}
