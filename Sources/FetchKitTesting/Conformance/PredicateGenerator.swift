import FetchKit
import FetchKitFixtures
import Foundation

/// Random predicates and rows for the differential check of in-memory evaluation: every operator, `[c]`,
/// `[d]` and `[cd]`, `NOT` / `AND` / `OR`, key paths across a to-one relationship, `SELF`, key against key,
/// long `IN` lists, and values at the edges (NULL, `-0.0`, ±infinity, huge integers, dates to the
/// microsecond, mixed case, NFC and NFD text, empty strings, `%` and `_` in data).
struct PredicateGenerator {
    /// A probe row's table: a column of every type, each optional, and a to-one `ref`.
    static let probe = Entity(
        "Probe", table: "probe", primaryKey: .integer("id"),
        attributes: [
            Attribute("i", .integer, optional: true), Attribute("j", .integer, optional: true),
            Attribute("d", .double, optional: true), Attribute("e", .double, optional: true),
            Attribute("t", .text, optional: true), Attribute("u", .text, optional: true),
            Attribute("b", .bool, optional: true), Attribute("w", .date, optional: true),
            Attribute("x", .binary, optional: true),
            Attribute("refID", .integer, optional: true, column: "ref_id")
        ],
        relationships: [.toOne("ref", to: "Ref", foreignKey: "refID")])

    /// The related table.
    static let ref = Entity(
        "Ref", table: "ref", primaryKey: .integer("id"),
        attributes: [Attribute("name", .text, optional: true), Attribute("n", .integer, optional: true)],
        relationships: [.toMany("probes", to: "Probe", inverse: "ref")])

    static let schema: Schema = {
        do {
            return try Schema([probe, ref])
        } catch {
            preconditionFailure("the probe schema is inconsistent: \(error)")
        }
    }()

    var random: SeededRandom

    static let texts: [String] = [
        "", "a", "A", "abc", "ABC", "Abc", "abd", "b", "Zürich", "zürich", "ZÜRICH", "e\u{301}", "\u{e9}", "E\u{301}",
        "\u{c9}", "Straße", "STRASSE", "ΟΔΟΣ", "οδος", "οδοσ", "İstanbul", "istanbul", "50%", "50_", "a%b", "a_b",
        "a\\b", "100", "x*y", "x?y", "naïve", "naive", "ǅ", "ǆ", "日本", "😀", " a", "a ",
        "ß", "ss", "ẞ", "σ", "ς", "ı", "I", "ﬁ", "fi", "\u{212A}"
    ]
    static let integers: [Int64] = [
        0, 1, -1, 2, 3, 7, 42, -42, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1, .max, .min, .max - 1, 1_000_000
    ]
    static let doubles: [Double] = [
        0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 0.1, 1e300, -1e300, .infinity, -.infinity, 9_007_199_254_740_992.0,
        9.223372036854775807e18, 42.0, 3.0
    ]
    static let dates: [Int64] = [
        0, 1, -1, 1_700_000_000_000_000, 1_700_000_000_000_001, -62_135_596_800_000_000, 999_999
    ]
    static let blobs: [Data] = [Data(), Data([0]), Data([0, 0]), Data([1]), Data([0xff]), Data([1, 2, 3])]

    mutating func chance(_ percent: Int) -> Bool { random.int(0..<100) < percent }

    mutating func pick<T>(_ values: [T]) -> T { values[random.int(0..<values.count)] }

    /// A value of `type`, NULL one time in eight.
    mutating func value(_ type: AttributeType, nullable: Bool = true) -> Value {
        if nullable && chance(12) { return .null }
        switch type {
        case .integer: return .integer(chance(80) ? pick(Self.integers) : Int64(random.int(-5...5)))
        case .double: return .double(pick(Self.doubles))
        case .text: return .text(chance(85) ? pick(Self.texts) : pick(Self.texts) + pick(Self.texts))
        case .bool: return .bool(chance(50))
        case .date: return .date(Date(microsecondsSince1970: pick(Self.dates)))
        case .binary: return .blob(pick(Self.blobs))
        }
    }

    /// A random probe row (without its key).
    mutating func probeRow(refs: Int) -> Row {
        Row([
            ("i", value(.integer)), ("j", value(.integer)), ("d", value(.double)), ("e", value(.double)),
            ("t", value(.text)), ("u", value(.text)), ("b", value(.bool)), ("w", value(.date)), ("x", value(.binary)),
            ("refID", chance(15) ? .null : .integer(Int64(random.int(1...refs))))
        ])
    }

    /// A random `ref` row.
    mutating func refRow(id: Int64) -> Row {
        Row([("id", .integer(id)), ("name", value(.text)), ("n", value(.integer))])
    }

    /// The key paths of the probe and their types.
    static let keys: [(String, AttributeType)] = [
        ("i", .integer), ("j", .integer), ("d", .double), ("e", .double), ("t", .text), ("u", .text), ("b", .bool),
        ("w", .date), ("x", .binary), ("refID", .integer), ("ref.name", .text), ("ref.n", .integer)
    ]

    /// A random predicate, `depth` levels of `AND` / `OR` / `NOT` at most.
    mutating func predicate(depth: Int = 2) -> FetchPredicate {
        if depth > 0 && chance(35) {
            switch random.int(0..<3) {
            case 0: return .and((0..<random.int(1...3)).map { _ in predicate(depth: depth - 1) })
            case 1: return .or((0..<random.int(1...3)).map { _ in predicate(depth: depth - 1) })
            default: return .not(predicate(depth: depth - 1))
            }
        }
        if chance(2) { return .constant(chance(50)) }
        return .comparison(comparison())
    }

    private mutating func comparison() -> FetchPredicate.Comparison {
        if chance(4) {
            return .init(
                .object, pick([.equal, .notEqual, .lessThan, .greaterThanOrEqual, .in]),
                chance(50) ? .value(.integer(Int64(random.int(1...40)))) : .list([1, 5, 9, 70]))
        }
        let (key, type) = pick(Self.keys)
        let lhs = FetchPredicate.Operand.key(.init(key))
        var options: FetchPredicate.StringOptions = []
        if type == .text {
            switch random.int(0..<6) {
            case 0, 1: options = [.caseInsensitive]
            case 2: options = [.diacriticInsensitive]
            case 3: options = [.caseInsensitive, .diacriticInsensitive]
            default: break
            }
        }
        var operators: [FetchPredicate.Operator] = [
            .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .in, .between
        ]
        if type == .text { operators += [.beginsWith, .endsWith, .contains, .like, .like, .beginsWith, .contains] }
        let op = pick(operators)
        switch op {
        case .in:
            let count = chance(15) ? 70 : random.int(0...4)
            return .init(lhs, op, .list((0..<count).map { _ in value(type, nullable: chance(30)) }), options: options)
        case .between:
            return .init(
                lhs, op, .list([value(type, nullable: chance(20)), value(type, nullable: chance(20))]),
                options: options)
        case .like:
            return .init(lhs, op, .value(.text(likePattern())), options: options)
        case .beginsWith, .endsWith, .contains:
            if chance(25) { return .init(lhs, op, .key(.init(pick(["t", "u", "ref.name"]))), options: options) }
            return .init(lhs, op, .value(chance(8) ? .null : .text(pick(Self.texts))), options: options)
        default:
            if chance(20) {
                let comparable = Self.keys.filter {
                    $0.1 == type
                        || ([.integer, .double].contains($0.1)
                            && [.integer, .double].contains(type))
                }
                return .init(lhs, op, .key(.init(pick(comparable).0)), options: options)
            }
            if type == .integer && chance(25) {
                return .init(lhs, op, .value(.double(pick(Self.doubles))), options: options)
            }
            return .init(lhs, op, .value(value(type, nullable: chance(15))), options: options)
        }
    }

    /// A Foundation `LIKE` pattern with `*`, `?`, escapes and literal `%` / `_`.
    private mutating func likePattern() -> String {
        let pieces = ["*", "?", "a", "A", "b", "\\*", "\\?", "%", "_", "é", "e\u{301}", "ß", "Σ", "z", "50", ""]
        return (0..<random.int(0...4)).map { _ in pick(pieces) }.joined()
    }
}
