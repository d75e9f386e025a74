import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKit

/// Values chosen to sit on every edge of the database order, plus random ones.
enum DatabaseOrderSamples {
    static let twoTo53 = 9_007_199_254_740_992.0
    static let twoTo63 = 9_223_372_036_854_775_808.0

    static let numbers: [Value] = [
        .integer(0), .double(0), .double(-0.0), .integer(1), .double(1), .bool(true), .bool(false), .integer(-1),
        .double(0.5), .double(-0.5), .double(2.5), .double(-2.5), .integer(2), .integer(-2), .integer(-3),
        .integer(255), .integer(256), .integer(-255), .integer(-256), .integer(65_535), .integer(65_536),
        .integer(9_007_199_254_740_991), .integer(9_007_199_254_740_992), .integer(9_007_199_254_740_993),
        .double(twoTo53), .double(twoTo53 + 2), .integer(-9_007_199_254_740_993), .double(-twoTo53),
        .integer(.max), .integer(.max - 1), .integer(.min), .integer(.min + 1), .double(twoTo63), .double(-twoTo63),
        .double(twoTo63.nextDown), .double((-twoTo63).nextDown), .double(1e300), .double(-1e300),
        .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude), .double(-.leastNonzeroMagnitude),
        .double(1e-300), .double(-1e-300), .double(0.1), .double(1.0.nextDown), .double(-(1.0.nextDown)),
        .double(1.0.nextUp), .date(Date(microsecondsSince1970: 5)), .integer(5),
        .date(Date(microsecondsSince1970: -1)), .date(Date(microsecondsSince1970: 1_700_000_000_123_456))
    ]

    static let fragments = [
        "", "a", "A", "b", "B", "z", "Z", "é", "e\u{301}", "É", "ß", "SS", "ss", "İ", "ı", "i", "I", "日本", "🎉",
        "\u{FFFF}", "\u{10000}", "Ω", "ω", "Σ", "ǅ", "ﬁ", " ", "~", "\u{7F}", "0", "9", "ab", "aB", "Ab"
    ]

    static let blobs: [Data] = [
        Data(), Data([0]), Data([0, 0]), Data([1]), Data([1, 0]), Data([1, 2]), Data([1, 2, 0]), Data([255]),
        Data([255, 0]), Data([0, 255]), Data([2])
    ]

    /// A random value: mostly from the edge lists, some fully random.
    static func value<G: RandomNumberGenerator>(using random: inout G) -> Value {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return .null
        case 1, 2: return numbers.randomElement(using: &random) ?? .null
        case 3:
            let bits = Int.random(in: 0...62, using: &random)
            let magnitude = Int64.random(in: 0...(Int64(1) << bits), using: &random)
            return .integer(Bool.random(using: &random) ? magnitude : -magnitude)
        case 4:
            var double = Double(bitPattern: UInt64.random(in: .min ... .max, using: &random))
            if double.isNaN { double = 0.25 }
            return .double(double)
        case 5:
            return .double(Double(Int.random(in: -1_000...1_000, using: &random)) / 8)
        case 6:
            return .date(Date(microsecondsSince1970: Int64.random(in: -1_000_000...1_000_000, using: &random)))
        case 7, 8, 9:
            let count = Int.random(in: 0...3, using: &random)
            return .text((0..<count).map { _ in fragments.randomElement(using: &random) ?? "" }.joined())
        case 10:
            return .blob(blobs.randomElement(using: &random) ?? Data())
        default:
            let count = Int.random(in: 0...4, using: &random)
            return .blob(Data((0..<count).map { _ in [0, 1, 254, 255].randomElement(using: &random) ?? 0 }))
        }
    }
}

/// A seedable generator (SplitMix64) for the database-order tests.
typealias DatabaseOrderRandom = SeededRandom

extension ComparisonResult {
    var inverted: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}

@Suite("Value database order")
struct DatabaseOrderTests {
    static let twoTo53 = DatabaseOrderSamples.twoTo53
    static let twoTo63 = DatabaseOrderSamples.twoTo63

    @Test("storage classes: NULL, numbers, text, data")
    func classes() {
        let values: [Value] = [.blob(Data()), .text(""), .integer(.max), .double(-.infinity), .null]
        let sorted = values.sorted { $0.precedes($1) }
        #expect(sorted == [.null, .double(-.infinity), .integer(.max), .text(""), .blob(Data())])
        let descending = values.sorted { $0.precedes($1, ascending: false) }
        #expect(descending == sorted.reversed())
        #expect(Value.null.precedes(1) && !Value.null.precedes(1, ascending: false))
        #expect(Value.integer(1).precedes(.null, ascending: false))
    }

    static let numericCases: [(Value, Value, ComparisonResult)] = [
        (.integer(1), .double(1), .orderedSame),
        (.integer(0), .double(-0.0), .orderedSame),
        (.double(-0.0), .double(0), .orderedSame),
        (.integer(9_007_199_254_740_993), .double(twoTo53), .orderedDescending),
        (.integer(9_007_199_254_740_991), .double(twoTo53), .orderedAscending),
        (.integer(.max), .double(twoTo63), .orderedAscending),
        (.integer(.max), .double(twoTo63.nextDown), .orderedDescending),
        (.integer(.min), .double(-twoTo63), .orderedSame),
        (.integer(.min), .double((-twoTo63).nextDown), .orderedDescending),
        (.integer(2), .double(2.5), .orderedAscending),
        (.integer(-3), .double(-2.5), .orderedAscending),
        (.integer(-2), .double(-2.5), .orderedDescending),
        (.double(-.infinity), .integer(.min), .orderedAscending),
        (.double(.infinity), .integer(.max), .orderedDescending),
        (.bool(true), .integer(1), .orderedSame),
        (.bool(false), .double(0.5), .orderedAscending),
        (.date(Date(microsecondsSince1970: 5)), .integer(5), .orderedSame),
        (.date(Date(microsecondsSince1970: -1)), .bool(false), .orderedAscending),
        (.double(.nan), .null, .orderedSame),
        (.double(.nan), .integer(.min), .orderedAscending)
    ]

    @Test("numbers compare exactly across integers, doubles, booleans and dates")
    func numbers() {
        for (lhs, rhs, expected) in Self.numericCases {
            #expect(Value.databaseOrder(lhs, rhs) == expected, "\(lhs) vs \(rhs)")
            #expect(Value.databaseOrder(rhs, lhs) == expected.inverted, "\(rhs) vs \(lhs)")
        }
    }

    static let textCases: [(String, String, Bool, ComparisonResult)] = [
        ("Z", "a", false, .orderedAscending),
        ("Z", "a", true, .orderedDescending),
        ("A", "a", true, .orderedSame),
        ("é", "f", false, .orderedDescending),
        ("e\u{301}", "é", false, .orderedAscending),  // equal as Swift Strings, not as bytes
        ("\u{FFFF}", "🎉", false, .orderedAscending),  // UTF-16 order would say the opposite
        ("ab", "abc", false, .orderedAscending),
        ("", "a", false, .orderedAscending),
        ("ß", "SS", true, .orderedSame),
        ("É", "é", true, .orderedSame)
    ]

    @Test("text compares by UTF-8 bytes; case-insensitively by folded bytes")
    func text() {
        for (lhs, rhs, caseInsensitive, expected) in Self.textCases {
            #expect(
                Value.databaseOrder(.text(lhs), .text(rhs), caseInsensitive: caseInsensitive) == expected,
                "\(lhs) vs \(rhs), case-insensitive \(caseInsensitive)")
        }
        #expect(Value.databaseOrder(.integer(1), .integer(2), caseInsensitive: true) == .orderedAscending)
    }

    @Test("data compares byte by byte, then the shorter first")
    func data() {
        #expect(Value.databaseOrder(.blob(Data([1, 2])), .blob(Data([1, 2, 0]))) == .orderedAscending)
        #expect(Value.databaseOrder(.blob(Data([2])), .blob(Data([1, 255]))) == .orderedDescending)
        #expect(Value.databaseOrder(.blob(Data()), .blob(Data())) == .orderedSame)
        #expect(Value.databaseOrder(.blob(Data([0])), .text("\u{7F}")) == .orderedDescending)
    }

    @Test(
        "a total order on random values: antisymmetric, transitive, consistent with sorting",
        arguments: [UInt64(7), 8, 9])
    func totalOrder(seed: UInt64) {
        var random = DatabaseOrderRandom(seed: seed)
        for caseInsensitive in [false, true] {
            let values = (0..<400).map { _ in DatabaseOrderSamples.value(using: &random) }
            let order = { (a: Value, b: Value) in Value.databaseOrder(a, b, caseInsensitive: caseInsensitive) }
            for _ in 0..<2_000 {
                let a = values.randomElement(using: &random) ?? .null
                let b = values.randomElement(using: &random) ?? .null
                let c = values.randomElement(using: &random) ?? .null
                #expect(order(a, b) == order(b, a).inverted, "seed \(seed): \(a) vs \(b)")
                if order(a, b) != .orderedDescending && order(b, c) != .orderedDescending {
                    #expect(order(a, c) != .orderedDescending, "seed \(seed): \(a) ≤ \(b) ≤ \(c)")
                }
            }
            let sorted = values.sorted { order($0, $1) == .orderedAscending }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(order(a, b) != .orderedDescending, "seed \(seed): \(a) before \(b)")
            }
        }
    }
}

@Suite("Case folding")
struct CaseFoldingTests {
    @Test(
        "lower(upper(lower(x))) with σ for ς: sigmas, ß, ligatures, Kelvin, dotted and dotless i",
        arguments: [
            ("ΟΔΟΣ", "οδοσ"), ("οδος", "οδοσ"), ("ΣΑΣ ΣΤΟ", "σασ στο"), ("Σ", "σ"), ("ς", "σ"), ("ΑΣ.", "ασ."),
            ("Α'Σ", "α'σ"), ("ΣΑ", "σα"), ("Straße", "strasse"), ("STRASSE", "strasse"), ("ẞ", "ss"), ("ß", "ss"),
            ("İ", "i\u{307}"), ("ı", "i"), ("I", "i"), ("ǅ", "ǆ"), ("ﬁ", "fi"), ("\u{212A}", "k"), ("ᾳ", "αι"),
            ("plain", "plain"), ("", "")
        ])
    func folds(text: String, folded: String) {
        #expect(text.fetchKitCaseFolded.unicodeScalars.elementsEqual(folded.unicodeScalars))
    }

    @Test func sigmasAndSharpSOrderAsOneLetter() {
        #expect(Value.databaseOrder("ΟΔΟΣ", "οδος", caseInsensitive: true) == .orderedSame)
        #expect(Value.databaseOrder("ΟΔΟΣ", "οδοσ", caseInsensitive: true) == .orderedSame)
        #expect(Value.databaseOrder("Straße", "STRASSE", caseInsensitive: true) == .orderedSame)
        #expect(Value.databaseOrder("straße", "strast", caseInsensitive: true) == .orderedAscending)
    }
}
