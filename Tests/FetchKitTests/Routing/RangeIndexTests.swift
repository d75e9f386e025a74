import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKit

/// The router's range index finds exactly the routes whose range holds a value, whatever the ranges: numbers,
/// texts and prefixes, open on either side, nested, equal, empty.
@Suite("Range index")
struct RangeIndexTests {
    static func value(_ random: inout SeededRandom, texts: Bool) -> Value {
        if texts {
            let letters = ["a", "ab", "abc", "b", "ba", "bz", "c", "é", "z", "", "abd", "ac"]
            return .text(letters[Int.random(in: 0..<letters.count, using: &random)])
        }
        return Bool.random(using: &random)
            ? .integer(Int64.random(in: -20...20, using: &random))
            : .double(Double(Int.random(in: -40...40, using: &random)) / 2)
    }

    static func range(_ random: inout SeededRandom, texts: Bool) -> RangeIndex.Range {
        var range = RangeIndex.Range()
        if texts, Int.random(in: 0..<3, using: &random) == 0 {
            let prefix = ["a", "ab", "b", "é", "z"][Int.random(in: 0..<5, using: &random)]
            return RangeIndex.Range(lower: .text(prefix), upper: .prefix(prefix))
        }
        if Int.random(in: 0..<4, using: &random) > 0 { range.lower = value(&random, texts: texts) }
        if Int.random(in: 0..<4, using: &random) > 0 { range.upper = .value(value(&random, texts: texts)) }
        return range
    }

    @Test(arguments: [false, true])
    func everyRouteWhoseRangeHoldsAValueIsFoundOnce(texts: Bool) {
        var random = SeededRandom(seed: texts ? 7 : 3)
        for round in 0..<30 {
            var index = RangeIndex()
            var ranges: [Int: RangeIndex.Range] = [:]
            for id in 0..<Int.random(in: 0...200, using: &random) {
                let range = Self.range(&random, texts: texts)
                ranges[id] = range
                index.insert(id, range)
            }
            index.prepare()
            // Routes leave, come back with other ranges and arrive between rebuilds: found all the same, whether
            // the index rebuilt since or not.
            for step in 0..<6 {
                for id in Array(ranges.keys) where Int.random(in: 0..<5, using: &random) == 0 {
                    index.remove(id)
                    ranges[id] = nil
                }
                for id in 1_000..<(1_000 + Int.random(in: 0...10, using: &random)) {
                    let range = Self.range(&random, texts: texts)
                    ranges[id + step * 100] = range
                    index.insert(id + step * 100, range)
                }
                for id in Array(ranges.keys) where Int.random(in: 0..<8, using: &random) == 0 {
                    let range = Self.range(&random, texts: texts)
                    ranges[id] = range
                    index.insert(id, range)
                }
                if step.isMultiple(of: 2) { index.prepare() }
                for _ in 0..<50 {
                    let probe = Self.value(&random, texts: texts)
                    var found: [Int] = []
                    index.forEach(holding: probe) { found.append($0) }
                    let expected = ranges.filter { $0.value.contains(probe) }.map(\.key).sorted()
                    #expect(found.sorted() == expected, "round \(round), step \(step), \(probe)")
                    #expect(Set(found).count == found.count, "a route found twice for \(probe)")
                }
            }
        }
    }

    @Test func aPrefixHoldsTheTextsThatStartWithItAndNoOther() {
        let range = RangeIndex.Range(lower: .text("ab"), upper: .prefix("ab"))
        for text in ["ab", "abc", "ab\u{10FFFF}z", "abzzz"] { #expect(range.contains(.text(text)), "\(text)") }
        for text in ["a", "aa", "ac", "b", "", "Ab"] { #expect(!range.contains(.text(text)), "\(text)") }
        #expect(!range.contains(.null))
        #expect(!range.contains(.integer(1)))
    }

    @Test func conjunctsOfOneColumnNarrowOneRangeAndBothSidesArePreferred() throws {
        let schema = try Schema([HotTable.entity])
        func range(_ format: String) throws -> RangeIndex.Range? {
            let predicate = try FetchPredicate(format: format)
            let found = RoutePlan.rangeConjunct(of: predicate, entity: HotTable.entity, schema: schema)
            if let found { #expect(found.column == "v", "\(format) \(predicate) \(found)") }
            return found?.range
        }
        #expect(try range("v BETWEEN {3, 9}") == RangeIndex.Range(lower: 3, upper: .value(9)))
        #expect(try range("v >= 2 AND grp > 5 AND v < 8 AND v > 4") == RangeIndex.Range(lower: 4, upper: .value(8)))
        #expect(try range("v <= 7") == RangeIndex.Range(lower: nil, upper: .value(7)))
        // A double against an integer column compares across types in SQL: not indexed.
        let mixed = try range("v > 2.5")
        #expect(mixed == nil, "\(String(describing: mixed))")
        #expect(try range("v > 2 OR grp < 1") == nil)
        #expect(try range("NOT v > 2") == nil)
    }

    @Test func aBeginsWithNeedleIndexesItsLiteralPrefix() {
        #expect(RoutePlan.literalPrefix(of: "Zur") == "Zur")
        #expect(RoutePlan.literalPrefix(of: "Zu*ch") == "Zu")
        #expect(RoutePlan.literalPrefix(of: "?x") == "")
        #expect(RoutePlan.literalPrefix(of: #"a\*"#) == "a")
    }
}
