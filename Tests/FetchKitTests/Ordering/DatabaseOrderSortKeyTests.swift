import Foundation
import Testing

@_spi(Benchmarks) @testable import FetchKit

@Suite("SortKey: encoded keys order exactly like the database")
struct DatabaseOrderSortKeyTests {
    static func sign(_ a: SortKey, _ b: SortKey) -> ComparisonResult {
        a < b ? .orderedAscending : (b < a ? .orderedDescending : .orderedSame)
    }

    @Test(
        "one value, every direction and case folding: key order equals Value.databaseOrder",
        arguments: [UInt64(31), 32, 33, 34])
    func singleValues(seed: UInt64) {
        var random = DatabaseOrderRandom(seed: seed)
        let values =
            (0..<300).map { _ in DatabaseOrderSamples.value(using: &random) }
            + DatabaseOrderSamples.numbers
        for ascending in [true, false] {
            for caseInsensitive in [false, true] {
                let order = SortKeyOrder(
                    components: [.init(column: "v", ascending: ascending, caseInsensitive: caseInsensitive)],
                    primaryKey: "id")
                let keys = values.map { order.key(values: [$0], primaryKey: 1) }
                for _ in 0..<3_000 {
                    let i = Int.random(in: values.indices, using: &random)
                    let j = Int.random(in: values.indices, using: &random)
                    var expected = Value.databaseOrder(values[i], values[j], caseInsensitive: caseInsensitive)
                    if !ascending { expected = expected.inverted }
                    #expect(
                        Self.sign(keys[i], keys[j]) == expected,
                        "seed \(seed): \(values[i]) vs \(values[j]), ascending \(ascending), ci \(caseInsensitive)")
                    #expect((keys[i] == keys[j]) == (expected == .orderedSame), "seed \(seed)")
                    if keys[i] == keys[j] { #expect(keys[i].hashValue == keys[j].hashValue) }
                }
            }
        }
    }

    @Test(
        "several values and a primary key: sorting by keys equals sorting by values",
        arguments: [UInt64(41), 42, 43, 44, 45])
    func rows(seed: UInt64) {
        var random = DatabaseOrderRandom(seed: seed)
        let components = (0..<Int.random(in: 1...3, using: &random)).map { index in
            SortKeyOrder.Component(
                column: "c\(index)", ascending: Bool.random(using: &random),
                caseInsensitive: Bool.random(using: &random))
        }
        let order = SortKeyOrder(components: components, primaryKey: "id")
        // Few distinct values per column, so ties fall through to later columns and the primary key.
        let pools = components.map { _ in (0..<6).map { _ in DatabaseOrderSamples.value(using: &random) } }
        let textKeys = Bool.random(using: &random)
        let rows: [Row] = (0..<500).map { index in
            var pairs = components.indices.map { ("c\($0)", pools[$0].randomElement(using: &random) ?? .null) }
            pairs.append(("id", textKeys ? .text("k\(index % 37)-\(index)") : .integer(Int64(index * 7919 % 500))))
            return Row(pairs)
        }
        let byValues = rows.sorted { order.compare($0, $1) == .orderedAscending }
        let byKeys = rows.sorted { order.key($0) < order.key($1) }
        #expect(byKeys.map { $0["id"] } == byValues.map { $0["id"] }, "seed \(seed), order \(components)")
    }

    @Test("equal numbers encode alike whatever their type")
    func canonicalNumbers() {
        let order = SortKeyOrder([.ascending("v")], primaryKey: "id")
        func key(_ value: Value) -> SortKey { order.key(values: [value], primaryKey: 1) }
        #expect(key(.integer(1)) == key(.double(1)))
        #expect(key(.integer(1)) == key(.bool(true)))
        #expect(key(.double(-0.0)) == key(.integer(0)))
        #expect(key(.date(Date(microsecondsSince1970: 5))) == key(.integer(5)))
        #expect(key(.integer(.min)) == key(.double(-DatabaseOrderSamples.twoTo63)))
        #expect(key(.double(.nan)) == key(.null))
        #expect(key(.integer(9_007_199_254_740_993)) != key(.double(DatabaseOrderSamples.twoTo53)))
    }

    @Test("the primary key decodes back from a key of any shape", arguments: [UInt64(51), 52])
    func primaryKeyRoundTrip(seed: UInt64) throws {
        var random = DatabaseOrderRandom(seed: seed)
        let primaryKeys: [Value] = [
            .integer(0), .integer(1), .integer(-1), .integer(.max), .integer(.min), .integer(1_000_000),
            .text(""), .text("a\u{0}b"), .text("日本🎉"), .text(String(repeating: "long key ", count: 10))
        ]
        for _ in 0..<500 {
            let components = (0..<Int.random(in: 0...3, using: &random)).map { index in
                SortKeyOrder.Component(
                    column: "c\(index)", ascending: Bool.random(using: &random),
                    caseInsensitive: Bool.random(using: &random))
            }
            let order = SortKeyOrder(components: components, primaryKey: "id")
            let values = components.map { _ in DatabaseOrderSamples.value(using: &random) }
            let primaryKey = try #require(primaryKeys.randomElement(using: &random))
            let key = order.key(values: values, primaryKey: primaryKey)
            #expect(order.primaryKey(of: key) == primaryKey, "seed \(seed): \(values), \(primaryKey)")
        }
        let short = SortKeyOrder([], primaryKey: "id").key(values: [], primaryKey: 5)
        #expect(SortKeyOrder([.ascending("x")], primaryKey: "id").primaryKey(of: short) == nil)
    }

    @Test("numbers decode to the same number", arguments: [UInt64(61)])
    func numbersDecode(seed: UInt64) throws {
        var random = DatabaseOrderRandom(seed: seed)
        var samples = DatabaseOrderSamples.numbers
        for _ in 0..<2_000 {
            let value = DatabaseOrderSamples.value(using: &random)
            if value.orderNumber != nil { samples.append(value) }
        }
        for value in samples {
            for ascending in [true, false] {
                var encoder = SortKeyEncoder()
                encoder.append(value, ascending: ascending, caseInsensitive: false)
                var decoder = SortKeyDecoder(encoder.bytes)
                let next = decoder.next(ascending: ascending)
                let decoded = try #require(next, "seed \(seed): \(value)")
                #expect(Value.databaseOrder(decoded, value) == .orderedSame, "seed \(seed): \(value) → \(decoded)")
                #expect(decoder.offset == encoder.bytes.count)
            }
        }
    }

    @Test("keys up to 23 bytes are inline in 24 bytes; longer ones keep a tail and still compare right")
    func storage() {
        #expect(MemoryLayout<SortKey>.size == 24)
        let order = SortKeyOrder([.ascending("title")], primaryKey: "id")
        var keys: [(String, Int64, SortKey)] = []
        for length in [0, 1, 7, 8, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 31, 40] {
            for last in ["a", "b", "\u{0}"] {
                let title = String(repeating: "x", count: length) + last
                for id in [Int64(1), 300, .max] {
                    keys.append((title, id, order.key(values: [.text(title)], primaryKey: .integer(id))))
                }
            }
        }
        #expect(keys.contains { $0.2.byteCount <= 23 } && keys.contains { $0.2.byteCount > 23 })
        for (title, id, key) in keys {
            #expect(SortKey(encoded: key.encodedBytes) == key)
            #expect(key.encodedBytes.count == key.byteCount)
            for (otherTitle, otherID, other) in keys {
                var expected = Value.databaseOrder(.text(title), .text(otherTitle))
                if expected == .orderedSame { expected = Value.databaseOrder(.integer(id), .integer(otherID)) }
                #expect(Self.sign(key, other) == expected, "\(title)/\(id) vs \(otherTitle)/\(otherID)")
            }
        }
    }

    @Test("a typical key is small: a number and an integer primary key fit inline")
    func typicalSizes() {
        let order = SortKeyOrder([.ascending("ordering")], primaryKey: "id")
        #expect(order.key(values: [.double(12_345.678)], primaryKey: .integer(999_999)).byteCount <= 23)
        let two = SortKeyOrder([.ascending("position"), .descending("priority")], primaryKey: "id")
        #expect(two.key(values: [3, 1_000], primaryKey: .integer(1_000_000)).byteCount <= 23)
        let date = SortKeyOrder([.descending("due")], primaryKey: "id")
        #expect(date.key(values: [.date(Date())], primaryKey: .integer(1_000_000)).byteCount <= 23)
    }

    @Test("an order made from a request ends with the entity's primary key")
    func fromRequest() throws {
        let schema = try Schema([
            Entity(
                "Item", table: "item", primaryKey: .text("slug"),
                attributes: [Attribute("rank", .integer)])
        ])
        let order = try SortKeyOrder(
            FetchRequest(entity: "Item", sortDescriptors: [.descending("rank")]).erased, in: schema)
        #expect(order.primaryKey == "slug")
        #expect(order.components == [.init(column: "rank", ascending: false)])
        let row: Row = ["slug": "b", "rank": 2]
        #expect(order.primaryKey(of: order.key(row)) == .text("b"))
        #expect(throws: FetchKitError.self) { try SortKeyOrder(FetchRequest(entity: "Nope").erased, in: schema) }
    }
}
