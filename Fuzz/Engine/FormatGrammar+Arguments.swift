import FetchKit
import Foundation

extension FormatGrammar {
    static let texts = [
        "", "a", "abc", "Zürich", "e\u{301}", "😀", "it's", "say \"hi\"", "back\\slash", "line\nbreak", "tab\t",
        "\u{1}\u{7F}", "%@", "%K", "$X", "50%", "a_b", "*?", "\\*", "日本語", "\u{FFFD}", "'", "\"", "NULL", "AND"
    ]
    static let integers: [Int64] = [0, 1, -1, 2, 42, -42, 255, 1 << 53, .max, .min, .max - 1, 1_000_000]
    static let doubles: [Double] = [
        0, -0.0, 0.5, -2.25, 0.1, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity,
        -.infinity, .nan, -.nan, .signalingNaN, 9_007_199_254_740_994, 1e16, 123_456.789
    ]
    static let seconds: [Double] = [0, 1.5, -1, 1e9, 7.25e8 + 0.000_001, -6.3e10, 3e10, 0.123_456_7]

    /// An argument for `spelling`: a key path string for `%K`, an integer for `%d`, a number for `%f`, a string
    /// for `%s`, a character or code point for `%c`, anything for `%@`.
    mutating func argument(for spelling: String, type: AttributeType?) -> any FormatArgument {
        switch spelling.last {
        case "K":
            return chance(90)
                ? pick(keyPaths).components.joined(separator: ".")
                : pick(["", "a..b", "1abc", "todos.@count", "@count", "a.@COUNT", "SELF", "a b", "#in", "x.y.z"])
        case "d", "i", "u", "x", "X", "o":
            return chance(80) ? pick(Self.integers) : Int64(random.int(-1000...1000))
        case "f", "F", "e", "E", "g", "G", "a", "A":
            return chance(80) ? pick(Self.doubles) : Double(random.int(-9...9))
        case "s", "S":
            return pick(Self.texts)
        case "c", "C":
            return chance(60)
                ? pick(["a", "é", "😀", "ab", ""]) : pick([65, 0x1F600, 0xD800, 0, -1, 0x110000] as [Int64])
        default:
            return chance(15) ? arrayArgument(type: type) : valueArgument(type: type)
        }
    }

    /// One value of `type` (any type when `nil`), `nil` now and then.
    mutating func valueArgument(type: AttributeType?) -> any FormatArgument {
        if chance(5) { return Int?.none }
        switch type ?? pick([.integer, .double, .text, .bool, .date, .binary]) {
        case .integer: return chance(50) ? pick(Self.integers) : pick([Int(7), Int(-3)] as [Int])
        case .double: return chance(90) ? pick(Self.doubles) : Float(1.5)
        case .text:
            return chance(95) ? pick(Self.texts) : UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        case .bool: return chance(50)
        case .date: return Date(timeIntervalSinceReferenceDate: pick(Self.seconds))
        case .binary: return Data(pick([[], [0], [0xFF, 0x10], [1, 2, 3]] as [[UInt8]]))
        }
    }

    /// An array of `count` values (0–4 when `nil`, sometimes 70) of one kind.
    mutating func arrayArgument(type: AttributeType?, count: Int? = nil) -> any FormatArgument {
        let count = count ?? (chance(5) ? 70 : random.int(0...4))
        switch type ?? pick([.integer, .double, .text, .bool, .date, .binary]) {
        case .integer: return (0..<count).map { _ in pick(Self.integers) }
        case .double: return (0..<count).map { _ in pick(Self.doubles) }
        case .text: return (0..<count).map { _ in pick(Self.texts) }
        case .bool: return (0..<count).map { _ in chance(50) }
        case .date: return (0..<count).map { _ in Date(timeIntervalSinceReferenceDate: pick(Self.seconds)) }
        case .binary: return (0..<count).map { _ in chance(50) ? Data() : Data([0, 1]) }
        }
    }
}
