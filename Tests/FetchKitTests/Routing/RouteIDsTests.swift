import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKit

/// The routes of an index entry: one without a set, several in one, and back; checked against a plain set.
@Suite("Route IDs of an index entry")
struct RouteIDsTests {
    static func contents(_ ids: RouteIDs) -> Set<Int> {
        let found = Set(ids)
        #expect(found.count == Array(ids).count)
        return found
    }

    @Test func oneThenManyThenOneAgain() {
        var ids = RouteIDs(3)
        ids.insert(3)
        #expect(ids == .one(3))
        ids.insert(4)
        ids.insert(5)
        #expect(Self.contents(ids) == [3, 4, 5])
        let kept = [ids.remove(4), ids.remove(3)]
        #expect(kept == [true, true])
        #expect(ids == .one(5))
        let afterStranger = ids.remove(9)
        let afterLast = ids.remove(5)
        #expect(afterStranger && !afterLast)
    }

    @Test("random insertions and removals match a set", arguments: [1, 2, 3])
    func randomised(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var ids = RouteIDs(0)
        var model: Set<Int> = [0]
        for _ in 0..<2_000 {
            let id = Int.random(in: 0..<6, using: &random)
            if Bool.random(using: &random) {
                ids.insert(id)
                model.insert(id)
            } else if model.count > 1 || !model.contains(id) {
                model.remove(id)
                let kept = ids.remove(id)
                #expect(kept)
            }
            #expect(Self.contents(ids) == model)
            if model.count == 1 { #expect(ids == .one(model.first ?? -1)) }
        }
    }
}
