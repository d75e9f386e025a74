@_spi(Benchmarks) import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// A seedable generator (SplitMix64), so a failure names the seed that reproduces it.
typealias SQLiteOrderRandom = SeededRandom

/// In-memory orders (``Value/databaseOrder(_:_:caseInsensitive:)``, ``SortKeyOrder``, ``SortKey``) checked
/// against what SQLite's `ORDER BY` really returns.
@Suite("Database order against real SQLite ORDER BY")
struct DatabaseOrderSQLiteTests {
    static let twoTo53 = 9_007_199_254_740_992.0
    static let twoTo63 = 9_223_372_036_854_775_808.0

    static let numbers: [Value] = [
        .integer(0), .double(0), .double(-0.0), .integer(1), .double(1), .bool(true), .bool(false), .integer(-1),
        .double(0.5), .double(-0.5), .double(-2.5), .integer(-2), .integer(-3), .integer(255), .integer(256),
        .integer(9_007_199_254_740_991), .integer(9_007_199_254_740_992), .integer(9_007_199_254_740_993),
        .double(twoTo53), .double(twoTo53 + 2), .integer(-9_007_199_254_740_993), .double(-twoTo53),
        .integer(.max), .integer(.max - 1), .integer(.min), .integer(.min + 1), .double(twoTo63),
        .double(-twoTo63), .double(twoTo63.nextDown), .double((-twoTo63).nextDown), .double(1e300),
        .double(-1e300), .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude),
        .double(-.leastNonzeroMagnitude), .double(-1e-300), .double(1.0.nextDown), .double(-(1.0.nextDown)),
        .date(Date(microsecondsSince1970: 5)), .integer(5), .date(Date(microsecondsSince1970: -1))
    ]

    static let fragments = [
        "", "a", "A", "b", "B", "z", "Z", "é", "e\u{301}", "É", "ß", "SS", "ss", "İ", "ı", "i", "I", "日本", "🎉",
        "\u{FFFF}", "\u{10000}", "Ω", "ω", "Σ", "ǅ", "ﬁ", " ", "~", "\u{7F}", "0", "9", "ab", "aB", "Ab"
    ]

    static func text<G: RandomNumberGenerator>(using random: inout G) -> String {
        (0..<Int.random(in: 0...3, using: &random)).map { _ in fragments.randomElement(using: &random) ?? "" }
            .joined()
    }

    static func blob<G: RandomNumberGenerator>(using random: inout G) -> Data {
        Data(
            (0..<Int.random(in: 0...3, using: &random)).map { _ in
                [0, 1, 2, 254, 255].randomElement(using: &random) ?? 0
            })
    }

    /// A random storable value of any type (no NaN, no NUL in text: FetchKit refuses to store them).
    static func value<G: RandomNumberGenerator>(using random: inout G) -> Value {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return .null
        case 1, 2: return numbers.randomElement(using: &random) ?? .null
        case 3:
            let magnitude = Int64.random(in: 0...(Int64(1) << Int.random(in: 0...62, using: &random)), using: &random)
            return .integer(Bool.random(using: &random) ? magnitude : -magnitude)
        case 4:
            let double = Double(bitPattern: UInt64.random(in: .min ... .max, using: &random))
            return .double(double.isNaN ? 1.5 : double)
        case 5: return .double(Double(Int.random(in: -64...64, using: &random)) / 4)
        case 6, 7: return .text(text(using: &random))
        case 8: return .bool(Bool.random(using: &random))
        default: return .blob(blob(using: &random))
        }
    }

    static let mixed = Entity(
        "Mixed", table: "mixed", primaryKey: .integer("id"), attributes: [Attribute("v", .binary, optional: true)])
    static let ranked = Entity(
        "Ranked", table: "ranked", primaryKey: .integer("id"), attributes: [Attribute("position", .integer)])

    @Test(
        "one column holding every storage class: ORDER BY v [DESC], fk_casefold(v), then id",
        arguments: [UInt64(101), 102, 103])
    func mixedColumn(seed: UInt64) async throws {
        var random = SQLiteOrderRandom(seed: seed)
        let values = Self.numbers + (0..<600).map { _ in Self.value(using: &random) }
        let store = try await SQLiteStore.inMemory(schema: try Schema([Self.mixed, Self.ranked]))
        try await store.write { tx in
            // A BLOB column has no affinity conversion: each value keeps the storage class it is bound as.
            for (index, value) in values.enumerated() {
                try tx.execute("INSERT INTO mixed (id, v) VALUES (?, ?)", [.integer(Int64(index + 1)), value])
            }
        }
        for ascending in [true, false] {
            for caseInsensitive in [false, true] {
                let expression = caseInsensitive ? "fk_casefold(v)" : "v"
                let term = ascending ? "\(expression) ASC NULLS FIRST" : "\(expression) DESC NULLS LAST"
                try await store.write { tx in
                    try tx.execute("DELETE FROM ranked", [])
                    try tx.execute(
                        "INSERT INTO ranked (id, position) SELECT id, row_number() OVER (ORDER BY \(term), id ASC) "
                            + "FROM mixed", [])
                }
                let ranks = try await store.fetch(
                    FetchRequest(entity: "Ranked", sortDescriptors: [.ascending("position")]))
                let sqliteOrder = ranks.compactMap { $0["id", as: Int64.self] }
                #expect(sqliteOrder.count == values.count)

                let byValue = values.indices.sorted { a, b in
                    let order = Value.databaseOrder(values[a], values[b], caseInsensitive: caseInsensitive)
                    if order == .orderedSame { return a < b }
                    return ascending ? order == .orderedAscending : order == .orderedDescending
                }.map { Int64($0 + 1) }
                let valueDifference = Self.firstDifference(byValue, sqliteOrder, values)
                #expect(valueDifference == nil, "seed \(seed), ORDER BY \(term): \(valueDifference ?? "")")

                let order = SortKeyOrder(
                    components: [.init(column: "v", ascending: ascending, caseInsensitive: caseInsensitive)],
                    primaryKey: "id")
                let keys = values.enumerated().map { order.key(values: [$1], primaryKey: .integer(Int64($0 + 1))) }
                let byKey = keys.indices.sorted { keys[$0] < keys[$1] }.map { Int64($0 + 1) }
                let keyDifference = Self.firstDifference(byKey, sqliteOrder, values)
                #expect(keyDifference == nil, "seed \(seed), ORDER BY \(term): \(keyDifference ?? "")")
            }
        }
        await store.close()
    }

    /// Where two id orders first differ, with the values there, for a readable failure; `nil` when equal.
    static func firstDifference(_ ours: [Int64], _ theirs: [Int64], _ values: [Value]) -> String? {
        guard ours.count == theirs.count else { return "\(ours.count) ids, SQLite returned \(theirs.count)" }
        guard let index = ours.indices.first(where: { ours[$0] != theirs[$0] }) else { return nil }
        func describe(_ id: Int64) -> String {
            "id \(id) = \(values.indices.contains(Int(id) - 1) ? values[Int(id) - 1] : .null)"
        }
        return "position \(index): ours \(describe(ours[index])), SQLite's \(describe(theirs[index]))"
    }

    static let orders: [[FetchSortDescriptor]] = [
        [.ascending("title")], [.descending("title")], [.ascending("title", caseInsensitive: true)],
        [.descending("title", caseInsensitive: true)], [.ascending("notes")], [.descending("notes")],
        [.ascending("notes", caseInsensitive: true)], [.ascending("priority")], [.descending("priority")],
        [.ascending("ordering")], [.descending("ordering")], [.ascending("done"), .descending("due")],
        [.descending("done"), .ascending("due")], [.ascending("attachment")], [.descending("attachment")],
        [.ascending("category.name"), .ascending("ordering")],
        [.descending("category.name", caseInsensitive: true), .descending("priority"), .ascending("title")],
        [.ascending("category.position"), .descending("notes", caseInsensitive: true), .ascending("ordering")],
        [.descending("id")], []
    ]

    @Test(
        "typed columns through FetchKit's compiled ORDER BY: the fetched order is the SortKey order",
        arguments: [UInt64(201), 202])
    func compiledOrder(seed: UInt64) async throws {
        var random = SQLiteOrderRandom(seed: seed)
        let categories = (0..<6).map { index in
            Fixtures.CategoryRecord(name: Self.text(using: &random), position: Int.random(in: 0...2, using: &random))
        }
        let orderings: [Double?] = [
            nil, -0.0, 0, 1, .infinity, -.infinity, 0.5, -1e300, 1e-300, Self.twoTo63, -Self.twoTo63
        ]
        let todos = (0..<400).map { _ in
            Fixtures.TodoRecord(
                title: Self.text(using: &random),
                notes: Bool.random(using: &random) ? nil : Self.text(using: &random),
                priority: [Int.min, -1, 0, 1, 2, 3, Int.max].randomElement(using: &random) ?? 0,
                ordering: Bool.random(using: &random)
                    ? orderings.randomElement(using: &random) ?? nil
                    : Double(Int.random(in: -20...20, using: &random)) / 3,
                done: Bool.random(using: &random),
                due: Int.random(in: 0..<3, using: &random) == 0
                    ? nil : Date(microsecondsSince1970: Int64.random(in: -3...3, using: &random) * 1_000_000_007),
                attachment: Bool.random(using: &random) ? nil : Self.blob(using: &random),
                categoryID: Int.random(in: 0..<4, using: &random) == 0 ? nil : Int64.random(in: 1...6, using: &random))
        }
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in
            for category in categories { try tx.insert(category) }
            for todo in todos { try tx.insert(todo) }
        }
        for descriptors in Self.orders {
            let request = FetchRequest(entity: "Todo", sortDescriptors: descriptors)
            let rows = try await store.fetch(request)
            #expect(rows.count == todos.count)
            let fetched = rows.map { $0["id"] }
            let order = try SortKeyOrder(request.erased, in: Fixtures.schema)
            let byValues = rows.sorted { order.compare($0, $1) == .orderedAscending }.map { $0["id"] }
            #expect(byValues == fetched, "seed \(seed), order \(descriptors)")
            let keys = rows.map { order.key($0) }
            let byKeys = keys.indices.sorted { keys[$0] < keys[$1] }.map { rows[$0]["id"] }
            #expect(byKeys == fetched, "seed \(seed), order \(descriptors)")
            #expect(Set(keys).count == keys.count, "keys are unique because the primary key ends them")
        }
        await store.close()
    }
}
