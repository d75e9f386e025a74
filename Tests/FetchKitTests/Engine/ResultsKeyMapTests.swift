@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKit

/// The primary-key map of snapshots: integer keys in a key-ordered persistent tree, anything else in a hash
/// trie; both checked against a dictionary through random sets, removals and replacements, with old copies
/// unchanged.
@Suite("ResultsKeyMap")
struct ResultsKeyMapTests {
    static let layout = RowLayout(names: ["id", "name"])

    static func map(keys: [Value]) -> ResultsKeyMap {
        let rows = keys.map { Row(layout: layout, values: [$0, .text("row")]) }
        let entries = ResultsEntries(
            rows.map { ResultsEntry(row: $0, object: $0) }, separator: { _ in SortKeyEncoder().key() })
        return ResultsKeyMap(entries, primaryKey: "id")
    }

    @Test(arguments: [false, true])
    func randomEditsMatchADictionary(textKeys: Bool) {
        var random = SeededRandom(seed: textKeys ? 5 : 6)
        func key(_ number: Int) -> Value { textKeys ? .text("k\(number)") : .integer(Int64(number)) }
        let initial = (0..<3_000).map { $0 * 3 }.shuffled(using: &random)
        var map = Self.map(keys: initial.map(key))
        var model: [Value: UInt32] = [:]
        for (handle, number) in initial.enumerated() { model[key(number)] = UInt32(handle) }
        let before = map
        let expectedBefore = model
        for step in 0..<6_000 {
            let number = random.int(-10..<10_000)
            let handle: UInt32? = random.int(0..<3) == 0 ? nil : UInt32(step + 10_000)
            map[key(number)] = handle
            model[key(number)] = handle
            if step % 250 == 0 {
                for probe in stride(from: -10, to: 10_000, by: 7) {
                    #expect(map[key(probe)] == model[key(probe)], "step \(step), key \(probe)")
                }
            }
        }
        for (key, handle) in model { #expect(map[key] == handle) }
        for (key, handle) in expectedBefore { #expect(before[key] == handle, "an old copy changed") }
    }

    /// A key that is not an integer moves an integer map to the hash trie, keeping every entry.
    @Test func aTextKeyConvertsTheMap() {
        var map = Self.map(keys: (0..<500).map { .integer(Int64($0)) })
        map[.text("seven")] = 9_999
        #expect(map[.text("seven")] == 9_999)
        #expect((0..<500).allSatisfy { map[.integer(Int64($0))] == UInt32($0) })
        #expect(map[.integer(500)] == nil)
    }
}
