import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKit

/// The router's holder index names exactly the routes holding a key, whatever the keys' types and however the
/// holders come and go, checked against a plain dictionary of sets.
@Suite("Holder index")
struct HolderIndexTests {
    static func holders(of key: Value, in index: HolderIndex) -> Set<Int> {
        var found: Set<Int> = []
        index.forEach(holding: key) { found.insert($0) }
        return found
    }

    @Test("one holder, several, then one again; other key types alongside")
    func transitions() {
        var index = HolderIndex()
        index.add(1, key: .integer(10))
        index.add(1, key: .integer(10))
        #expect(Self.holders(of: .integer(10), in: index) == [1])
        index.add(2, key: .integer(10))
        index.add(3, key: .integer(10))
        #expect(Self.holders(of: .integer(10), in: index) == [1, 2, 3])
        index.remove(2, key: .integer(10))
        index.remove(1, key: .integer(10))
        #expect(Self.holders(of: .integer(10), in: index) == [3])
        index.add(4, key: .integer(10))
        #expect(Self.holders(of: .integer(10), in: index) == [3, 4])
        index.add(5, key: .text("10"))
        #expect(Self.holders(of: .text("10"), in: index) == [5])
        #expect(Self.holders(of: .integer(11), in: index).isEmpty)
        index.remove(9, key: .integer(10))
        index.remove(9, key: .text("absent"))
        #expect(Self.holders(of: .integer(10), in: index) == [3, 4])
        for (id, key) in [(3, Value.integer(10)), (4, .integer(10)), (5, .text("10"))] { index.remove(id, key: key) }
        #expect(index.isEmpty)
    }

    @Test("random additions and removals match a dictionary of sets", arguments: [1, 2, 3])
    func randomised(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var index = HolderIndex()
        var model: [Value: Set<Int>] = [:]
        let keys: [Value] = (0..<12).map { .integer(Int64($0)) } + [.text("a"), .text("b"), .double(1.5), .null]
        for _ in 0..<4_000 {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            // Among them, IDs beyond 32 bits, kept apart from the others.
            let id = [0, 1, 2, 3, 4, 1 << 33, (1 << 33) + 1][Int.random(in: 0..<7, using: &random)]
            if Bool.random(using: &random) {
                index.add(id, key: key)
                model[key, default: []].insert(id)
            } else {
                index.remove(id, key: key)
                model[key]?.remove(id)
                if model[key]?.isEmpty == true { model[key] = nil }
            }
            #expect(Self.holders(of: key, in: index) == model[key] ?? [])
        }
        for key in keys { #expect(Self.holders(of: key, in: index) == model[key] ?? []) }
        #expect(index.isEmpty == model.isEmpty)
    }
}
