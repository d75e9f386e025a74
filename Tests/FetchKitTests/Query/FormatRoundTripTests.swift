@_spi(Backend) import FetchKit
import Foundation
import Testing

private typealias F = FormatFixture

@Suite("Format parser: predicateFormat round trips")
struct FormatRoundTripTests {
    static let parsedFormats: [String] =
        (FormatParserTests.operators + FormatParserTests.options
        + FormatParserTests.literals + FormatParserTests.operands + FormatParserTests.logic).map(\.0)

    @Test("every valid format string round-trips", arguments: parsedFormats)
    func parsedRoundTrip(format: String) throws {
        let predicate = try FetchPredicate(format: format)
        #expect(try FetchPredicate(format: predicate.predicateFormat) == predicate)
        #expect(predicate.description == predicate.predicateFormat)
    }

    /// (format, its canonical rendering)
    static let renderings: [(String, String)] = [
        ("a = 1", "a == 1"),
        ("a <> 1", "a != 1"),
        ("a =< 1 && b => 2", "a <= 1 AND b >= 2"),
        ("name beginswith[c] 'a'", "name BEGINSWITH[c] \"a\""),
        ("t contains[dc] 'x'", "t CONTAINS[cd] \"x\""),
        ("t like[D] '*x?'", "t LIKE[d] \"*x?\""),
        ("a == 1 AND b == 1 OR c == 1", "a == 1 AND b == 1 OR c == 1"),
        ("(a == 1 AND b == 1) OR c == 1", "a == 1 AND b == 1 OR c == 1"),
        ("a == 1 || b == 1 && c == 1", "a == 1 OR b == 1 AND c == 1"),
        ("(a == 1 || b == 1) && c == 1", "(a == 1 OR b == 1) AND c == 1"),
        ("(a == 1 && b == 1) && c == 1", "(a == 1 AND b == 1) AND c == 1"),
        ("a == 1 || (b == 1 || c == 1)", "a == 1 OR (b == 1 OR c == 1)"),
        ("NOT (a == 1 AND b == 1)", "NOT (a == 1 AND b == 1)"),
        ("NOT (a == 1 OR b == 1)", "NOT (a == 1 OR b == 1)"),
        ("!a == 1", "NOT a == 1"),
        ("((a == 1))", "a == 1"),
        ("SOME todos.done == yes", "ANY todos.done == TRUE"),
        ("all todos.p > 1", "ALL todos.p > 1"),
        ("none todos.p > 1", "NONE todos.p > 1"),
        ("todos.@count > 2", "todos.@count > 2"),
        ("SELF == nil", "SELF == NULL"),
        ("SELF.name == 1", "name == 1"),
        ("#in == 1", "#in == 1"),
        ("category.in == 1", "category.#in == 1"),
        ("a IN {1, 'b', no}", "a IN {1, \"b\", FALSE}"),
        ("a BETWEEN { 1 , 2 }", "a BETWEEN {1, 2}"),
        ("a == 'it\\'s \"q\"\\n'", "a == \"it's \\\"q\\\"\\n\""),
        ("a == '\\u0001'", "a == \"\\u0001\""),
        ("truepredicate OR falsepredicate", "TRUEPREDICATE OR FALSEPREDICATE"),
        ("a == $X", "a == $X"),
        ("a == 1.5", "a == 1.5"),
        ("a == 1e3", "a == 1000.0"),
        ("a == 0x10", "a == 16"),
        ("d == CAST(0, 'NSDate')", "d == CAST(0.0, \"NSDate\")"),
        ("b == CAST('0A', 'NSData')", "b == CAST(\"0a\", \"NSData\")")
    ]

    @Test("canonical renderings", arguments: renderings)
    func rendering(format: String, rendered: String) throws {
        #expect(try FetchPredicate(format: format).predicateFormat == rendered)
    }

    static let built: [FetchPredicate] = [
        F.compare("a", .equal, .double(.infinity)),
        F.compare("a", .equal, .double(-.infinity)),
        F.compare("a", .equal, .double(-0.0)),
        F.compare("a", .equal, .double(.leastNonzeroMagnitude)),
        F.compare("a", .equal, .double(1e300)),
        F.compare("a", .equal, .double(0.1 + 0.2)),
        F.compare("a", .equal, .double(-1e-7)),
        F.compare("a", .equal, .integer(.min)),
        F.compare("a", .equal, .integer(.max)),
        F.compare("a", .equal, "\u{1}\u{1F}\u{7F} tab\t back\\slash \"quotes\" 'single'"),
        F.compare("a", .equal, "emoji 😀 e\u{301} 中文"),
        F.compare("a", .equal, "%@ %K $X"),
        F.compare("a", .equal, .date(Date(timeIntervalSince1970: 1_700_000_000.123456))),
        F.compare("a", .equal, .date(Date(microsecondsSince1970: -1))),
        F.compare("a", .equal, .date(Date(timeIntervalSince1970: 0))),
        F.compare("a", .equal, .blob(Data())),
        F.compare("a", .equal, .blob(Data([0, 1, 127, 128, 255]))),
        F.compare(.key(FetchPredicate.Key(components: ["in", "AND", "self", "Null"])), .equal, .value(1)),
        F.compare(.count(FetchPredicate.Key(components: ["todos"])), .greaterThan, .value(2), quantifier: .any),
        F.compare(.object, .in, .list([1, 2, .null])),
        F.compare(.variable("LOW", offset: nil), .lessThan, .variable("HIGH", offset: nil)),
        F.compare(F.key("a"), .between, F.variable("RANGE")),
        .and([F.isOne("a"), .and([F.isOne("b"), F.isOne("c")])]),
        .or([.or([F.isOne("a"), F.isOne("b")]), F.isOne("c")]),
        .and([.or([F.isOne("a"), F.isOne("b")]), .or([F.isOne("c"), F.isOne("d")])]),
        .or([.and([F.isOne("a"), F.isOne("b")]), .not(.and([F.isOne("c"), F.isOne("d")]))]),
        .not(.not(.constant(false))),
        .not(.or([.constant(true), .not(F.isOne("a"))]))
    ]

    @Test("built predicates round-trip", arguments: built)
    func builtRoundTrip(predicate: FetchPredicate) throws {
        #expect(try FetchPredicate(format: predicate.predicateFormat) == predicate)
    }

    @Test("every operator, option and quantifier round-trips", arguments: FetchPredicate.Operator.allCases)
    func operatorRoundTrip(op: FetchPredicate.Operator) throws {
        let rhs: FetchPredicate.Operand = op == .between || op == .in ? .list(["a", "b"]) : .value("a")
        let optionSets: [FetchPredicate.StringOptions] = [
            [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]
        ]
        let quantifiers: [FetchPredicate.Quantifier] = [.one, .any, .all, .none]
        for options in optionSets {
            for quantifier in quantifiers {
                let predicate = F.compare(F.key("tags.name"), op, rhs, options, quantifier: quantifier)
                #expect(try FetchPredicate(format: predicate.predicateFormat) == predicate)
            }
        }
    }

    /// Random trees of every node and operand kind (compounds with two or more members) round-trip.
    @Test func randomTreesRoundTrip() throws {
        var random = FormatFuzzRandom(seed: 42)
        for _ in 0..<500 {
            let predicate = Self.randomPredicate(depth: 5, &random)
            #expect(try FetchPredicate(format: predicate.predicateFormat) == predicate, "\(predicate)")
        }
    }

    private static func randomPredicate(depth: Int, _ random: inout FormatFuzzRandom) -> FetchPredicate {
        let pick = depth == 0 ? 0 : random.next() % 5
        switch pick {
        case 1, 2:
            let members = (0..<(2 + Int(random.next() % 3))).map { _ in randomPredicate(depth: depth - 1, &random) }
            return pick == 1 ? .and(members) : .or(members)
        case 3:
            return .not(randomPredicate(depth: depth - 1, &random))
        default:
            guard random.next() % 8 != 0 else { return .constant(random.next() % 2 == 0) }
            let operators = FetchPredicate.Operator.allCases
            let op = operators[Int(random.next() % UInt64(operators.count))]
            let rhs: FetchPredicate.Operand =
                op == .between
                ? .list([randomValue(&random), randomValue(&random)])
                : randomOperand(&random)
            let quantifiers: [FetchPredicate.Quantifier] = [.one, .any, .all, .none]
            return F.compare(
                randomOperand(&random), op, rhs, FetchPredicate.StringOptions(rawValue: UInt8(random.next() % 4)),
                quantifier: quantifiers[Int(random.next() % 4)])
        }
    }

    private static func randomOperand(_ random: inout FormatFuzzRandom) -> FetchPredicate.Operand {
        let keys = ["a", "b.c", "in.not", "todos", "SELF.x", "_y1"]
        let key = FetchPredicate.Key(components: keys[Int(random.next() % 6)].split(separator: ".").map(String.init))
        switch random.next() % 6 {
        case 0: return .key(key)
        case 1: return .count(key)
        case 2: return .variable(["V", "in", "x_1"][Int(random.next() % 3)], offset: nil)
        case 3: return .object
        case 4: return .list((0..<Int(random.next() % 3)).map { _ in randomValue(&random) })
        default: return .value(randomValue(&random))
        }
    }

    private static func randomValue(_ random: inout FormatFuzzRandom) -> Value {
        switch random.next() % 8 {
        case 0: return .null
        case 1: return .integer(Int64(bitPattern: random.next()))
        case 2:
            let double = Double(bitPattern: random.next())
            return .double(double.isNaN ? 0.5 : double)
        case 3: return .bool(random.next() % 2 == 0)
        case 4: return .date(Date(microsecondsSince1970: Int64(bitPattern: random.next()) >> 12))
        case 5:
            return .blob(Data((0..<Int(random.next() % 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        default:
            let scalars = (0..<Int(random.next() % 6)).compactMap { _ in
                Unicode.Scalar(UInt32(1 + random.next() % 0x2FF))
            }
            return .text(String(String.UnicodeScalarView(scalars)))
        }
    }

    @Test func notANumberRoundTripsAsNaN() throws {
        let predicate = F.compare("a", .equal, .double(.nan))
        #expect(predicate.predicateFormat == "a == CAST(\"nan\", \"NSNumber\")")
        let comparison = try #require(F.comparison(try FetchPredicate(format: predicate.predicateFormat)))
        guard case .value(.double(let value)) = comparison.rhs.node else {
            Issue.record("expected a double, got \(comparison.rhs)")
            return
        }
        #expect(value.isNaN)
    }

    @Test func degenerateCompoundsRenderTheirMeaning() throws {
        #expect(FetchPredicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).predicateFormat == "FALSEPREDICATE")
        #expect(FetchPredicate.and([F.isOne("a")]).predicateFormat == "a == 1")
        #expect(FetchPredicate.not(.or([F.isOne("a")])).predicateFormat == "NOT a == 1")
        #expect(FetchPredicate.or([.and([]), F.isOne("a")]).predicateFormat == "TRUEPREDICATE OR a == 1")
        let hidden = FetchPredicate.and([.and([F.isOne("a")]), .or([.or([F.isOne("b"), F.isOne("c")])])])
        #expect(hidden.predicateFormat == "a == 1 AND (b == 1 OR c == 1)")
    }

    @Test func descriptionIsTheFormat() throws {
        let predicate = try FetchPredicate(format: "done == NO AND category.name BEGINSWITH[c] %@", "work")
        #expect("\(predicate)" == "done == FALSE AND category.name BEGINSWITH[c] \"work\"")
    }
}
