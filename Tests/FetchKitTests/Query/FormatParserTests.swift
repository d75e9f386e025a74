@_spi(Backend) import FetchKit
import Foundation
import Testing

private typealias F = FormatFixture

@Suite("Format parser: valid format strings")
struct FormatParserTests {
    static let operators: [(String, FetchPredicate)] = [
        ("a == 1", F.compare("a", .equal, 1)),
        ("a = 1", F.compare("a", .equal, 1)),
        ("a != 1", F.compare("a", .notEqual, 1)),
        ("a <> 1", F.compare("a", .notEqual, 1)),
        ("a < 1", F.compare("a", .lessThan, 1)),
        ("a <= 1", F.compare("a", .lessThanOrEqual, 1)),
        ("a =< 1", F.compare("a", .lessThanOrEqual, 1)),
        ("a > 1", F.compare("a", .greaterThan, 1)),
        ("a >= 1", F.compare("a", .greaterThanOrEqual, 1)),
        ("a => 1", F.compare("a", .greaterThanOrEqual, 1)),
        ("a==1", F.compare("a", .equal, 1)),
        ("a<>1", F.compare("a", .notEqual, 1)),
        ("a IN {1, 2}", F.compare(F.key("a"), .in, .list([1, 2]))),
        ("a in {1,2}", F.compare(F.key("a"), .in, .list([1, 2]))),
        ("a BETWEEN {1, 5}", F.compare(F.key("a"), .between, .list([1, 5]))),
        ("a between {1.5,'z'}", F.compare(F.key("a"), .between, .list([1.5, "z"]))),
        ("t BEGINSWITH 'x'", F.compare("t", .beginsWith, "x")),
        ("t beginsWith 'x'", F.compare("t", .beginsWith, "x")),
        ("t ENDSWITH 'x'", F.compare("t", .endsWith, "x")),
        ("t endswith 'x'", F.compare("t", .endsWith, "x")),
        ("t CONTAINS 'x'", F.compare("t", .contains, "x")),
        ("t Contains 'x'", F.compare("t", .contains, "x")),
        ("t LIKE '*a?b*'", F.compare("t", .like, "*a?b*")),
        ("t like 'a'", F.compare("t", .like, "a")),
        ("t MATCHES '^a.*$'", F.compare("t", .matches, "^a.*$")),
        ("t matches 'x'", F.compare("t", .matches, "x"))
    ]

    @Test("operators and their synonyms", arguments: operators)
    func operatorsParse(format: String, expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format) == expected)
    }

    static let options: [(String, FetchPredicate)] = [
        ("t BEGINSWITH[c] 'x'", F.compare("t", .beginsWith, "x", .caseInsensitive)),
        ("t BEGINSWITH[d] 'x'", F.compare("t", .beginsWith, "x", .diacriticInsensitive)),
        ("t BEGINSWITH[cd] 'x'", F.compare("t", .beginsWith, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("t ENDSWITH[dc] 'x'", F.compare("t", .endsWith, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("t CONTAINS[CD] 'x'", F.compare("t", .contains, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("t contains[C] 'x'", F.compare("t", .contains, "x", .caseInsensitive)),
        ("t LIKE[c] 'x*'", F.compare("t", .like, "x*", .caseInsensitive)),
        ("t MATCHES[cd] 'x'", F.compare("t", .matches, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("t ==[c] 'x'", F.compare("t", .equal, "x", .caseInsensitive)),
        ("t =[d] 'x'", F.compare("t", .equal, "x", .diacriticInsensitive)),
        ("t !=[cd] 'x'", F.compare("t", .notEqual, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("t <[c] 'x'", F.compare("t", .lessThan, "x", .caseInsensitive)),
        ("t <=[c] 'x'", F.compare("t", .lessThanOrEqual, "x", .caseInsensitive)),
        ("t >[d] 'x'", F.compare("t", .greaterThan, "x", .diacriticInsensitive)),
        ("t >=[cd] 'x'", F.compare("t", .greaterThanOrEqual, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("t IN[c] {'a', 'b'}", F.compare(F.key("t"), .in, .list(["a", "b"]), .caseInsensitive)),
        ("t ENDSWITH [c] 'x'", F.compare("t", .endsWith, "x", .caseInsensitive)),
        ("t ==[ c ] 'x'", F.compare("t", .equal, "x", .caseInsensitive))
    ]

    @Test("string options [c] [d] [cd]", arguments: options)
    func optionsParse(format: String, expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format) == expected)
    }

    static let literals: [(String, FetchPredicate)] = [
        ("a == NULL", F.compare("a", .equal, .null)),
        ("a == nil", F.compare("a", .equal, .null)),
        ("a == Null", F.compare("a", .equal, .null)),
        ("a == TRUE", F.compare("a", .equal, .bool(true))),
        ("a == yes", F.compare("a", .equal, .bool(true))),
        ("a == FALSE", F.compare("a", .equal, .bool(false))),
        ("a == No", F.compare("a", .equal, .bool(false))),
        ("TRUEPREDICATE", .constant(true)),
        ("FALSEPREDICATE", .constant(false)),
        ("truePredicate", .constant(true)),
        ("a == 0", F.compare("a", .equal, 0)),
        ("a == 42", F.compare("a", .equal, 42)),
        ("a == 007", F.compare("a", .equal, 7)),
        ("a == -3", F.compare("a", .equal, -3)),
        ("a == 9223372036854775807", F.compare("a", .equal, .integer(.max))),
        ("a == -9223372036854775808", F.compare("a", .equal, .integer(.min))),
        ("a == 0x1F", F.compare("a", .equal, 31)),
        ("a == 0XfF", F.compare("a", .equal, 255)),
        ("a == -0x10", F.compare("a", .equal, -16)),
        ("a == 0x7FFFFFFFFFFFFFFF", F.compare("a", .equal, .integer(.max))),
        ("a == 0o17", F.compare("a", .equal, 15)),
        ("a == 0b101", F.compare("a", .equal, 5)),
        ("a == 1.5", F.compare("a", .equal, 1.5)),
        ("a == .5", F.compare("a", .equal, 0.5)),
        ("a == -.5", F.compare("a", .equal, -0.5)),
        ("a == -2.25", F.compare("a", .equal, -2.25)),
        ("a == 1e3", F.compare("a", .equal, 1000.0)),
        ("a == 1E-2", F.compare("a", .equal, 0.01)),
        ("a == 2.5e+2", F.compare("a", .equal, 250.0)),
        ("a == 0.1", F.compare("a", .equal, 0.1)),
        ("a == -0.0", F.compare("a", .equal, .double(-0.0))),
        ("a == 'x'", F.compare("a", .equal, "x")),
        ("a == \"x\"", F.compare("a", .equal, "x")),
        ("a == ''", F.compare("a", .equal, "")),
        ("a == \"it's\"", F.compare("a", .equal, "it's")),
        ("a == 'say \"hi\"'", F.compare("a", .equal, "say \"hi\"")),
        ("a == 'it\\'s'", F.compare("a", .equal, "it's")),
        ("a == \"say \\\"hi\\\"\"", F.compare("a", .equal, "say \"hi\"")),
        ("a == 'back\\\\slash'", F.compare("a", .equal, "back\\slash")),
        ("a == 'line\\nbreak'", F.compare("a", .equal, "line\nbreak")),
        ("a == 'tab\\there'", F.compare("a", .equal, "tab\there")),
        ("a == 'cr\\r'", F.compare("a", .equal, "cr\r")),
        ("a == 'caf\\u00e9'", F.compare("a", .equal, "café")),
        ("a == '\\uD83D\\uDE00'", F.compare("a", .equal, "😀")),
        ("a == 'héllo 😀'", F.compare("a", .equal, "héllo 😀")),
        ("a == '%@'", F.compare("a", .equal, "%@")),
        ("a == '100%'", F.compare("a", .equal, "100%")),
        ("a == '$X %K %d %%'", F.compare("a", .equal, "$X %K %d %%")),
        ("a IN {}", F.compare(F.key("a"), .in, .list([]))),
        ("a IN {1, 'two', 3.5, NULL, TRUE}", F.compare(F.key("a"), .in, .list([1, "two", 3.5, .null, true]))),
        ("a IN { -1 , 2 }", F.compare(F.key("a"), .in, .list([-1, 2]))),
        ("d > CAST(0, 'NSDate')", F.compare("d", .greaterThan, .date(Date(timeIntervalSinceReferenceDate: 0)))),
        ("d == CAST(1.5, \"NSDate\")", F.compare("d", .equal, .date(Date(timeIntervalSinceReferenceDate: 1.5)))),
        ("n == CAST('inf', 'NSNumber')", F.compare("n", .equal, .double(.infinity))),
        ("n == CAST('42', 'NSNumber')", F.compare("n", .equal, 42)),
        ("b == CAST('00ff10', 'NSData')", F.compare("b", .equal, .blob(Data([0, 255, 16])))),
        ("t == CAST(12, 'NSString')", F.compare("t", .equal, "12"))
    ]

    @Test("literals", arguments: literals)
    func literalsParse(format: String, expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format) == expected)
    }

    static let operands: [(String, FetchPredicate)] = [
        ("category.name == 'x'", F.compare("category.name", .equal, "x")),
        ("a.b.c == 1", F.compare("a.b.c", .equal, 1)),
        ("_private == 1", F.compare("_private", .equal, 1)),
        ("x1_Y == 1", F.compare("x1_Y", .equal, 1)),
        ("#in == 1", F.compare("in", .equal, 1)),
        ("#AND == 1", F.compare("AND", .equal, 1)),
        ("#self == 1", F.compare("self", .equal, 1)),
        ("#title == 1", F.compare("title", .equal, 1)),
        ("category.#in == 1", F.compare("category.in", .equal, 1)),
        ("category.in == 1", F.compare("category.in", .equal, 1)),
        ("SELF.name == 'x'", F.compare("name", .equal, "x")),
        ("SELF == 3", F.compare(.object, .equal, .value(3))),
        ("self IN {1, 2}", F.compare(.object, .in, .list([1, 2]))),
        ("SELF == SELF", F.compare(.object, .equal, .object)),
        ("todos.@count > 2", F.compare(F.count("todos"), .greaterThan, .value(2))),
        ("category.todos.@count == 0", F.compare(F.count("category.todos"), .equal, .value(0))),
        ("todos.@COUNT > 2", F.compare(F.count("todos"), .greaterThan, .value(2))),
        ("2 < todos.@count", F.compare(.value(2), .lessThan, F.count("todos"))),
        ("ANY todos.done == YES", F.compare("todos.done", .equal, true, quantifier: .any)),
        ("SOME todos.done == YES", F.compare("todos.done", .equal, true, quantifier: .any)),
        ("ALL todos.priority > 1", F.compare("todos.priority", .greaterThan, 1, quantifier: .all)),
        ("NONE todos.title CONTAINS 'x'", F.compare("todos.title", .contains, "x", quantifier: .none)),
        ("any tags.name IN {'a'}", F.compare(F.key("tags.name"), .in, .list(["a"]), quantifier: .any)),
        ("ANY tags.name ==[c] 'a'", F.compare("tags.name", .equal, "a", .caseInsensitive, quantifier: .any)),
        ("3 < priority", F.compare(.value(3), .lessThan, F.key("priority"))),
        ("'x' IN tags.name", F.compare(.value("x"), .in, F.key("tags.name"))),
        ("NULL == a", F.compare(.value(.null), .equal, F.key("a"))),
        ("a == b", F.compare(F.key("a"), .equal, F.key("b"))),
        ("a == $X", F.compare(F.key("a"), .equal, F.variable("X"))),
        ("a BETWEEN $RANGE", F.compare(F.key("a"), .between, F.variable("RANGE"))),
        ("$X == a", F.compare(F.variable("X"), .equal, F.key("a"))),
        ("  a\t==\n1  ", F.compare("a", .equal, 1))
    ]

    @Test("key paths, SELF, @count, quantifiers, operand order", arguments: operands)
    func operandsParse(format: String, expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format) == expected)
    }

    static let logic: [(String, FetchPredicate)] = [
        ("a == 1 AND b == 1", .and([F.isOne("a"), F.isOne("b")])),
        ("a == 1 and b == 1", .and([F.isOne("a"), F.isOne("b")])),
        ("a == 1 AnD b == 1", .and([F.isOne("a"), F.isOne("b")])),
        ("a == 1 && b == 1", .and([F.isOne("a"), F.isOne("b")])),
        ("a==1&&b==1", .and([F.isOne("a"), F.isOne("b")])),
        ("a == 1 OR b == 1", .or([F.isOne("a"), F.isOne("b")])),
        ("a == 1 || b == 1", .or([F.isOne("a"), F.isOne("b")])),
        ("NOT a == 1", .not(F.isOne("a"))),
        ("not a == 1", .not(F.isOne("a"))),
        ("!a == 1", .not(F.isOne("a"))),
        ("!(a == 1)", .not(F.isOne("a"))),
        ("NOT NOT a == 1", .not(.not(F.isOne("a")))),
        ("a == 1 AND b == 1 AND c == 1", .and([F.isOne("a"), F.isOne("b"), F.isOne("c")])),
        ("a == 1 OR b == 1 OR c == 1", .or([F.isOne("a"), F.isOne("b"), F.isOne("c")])),
        ("a == 1 AND b == 1 OR c == 1", .or([.and([F.isOne("a"), F.isOne("b")]), F.isOne("c")])),
        ("a == 1 OR b == 1 AND c == 1", .or([F.isOne("a"), .and([F.isOne("b"), F.isOne("c")])])),
        ("a == 1 && b == 1 || c == 1", .or([.and([F.isOne("a"), F.isOne("b")]), F.isOne("c")])),
        ("NOT a == 1 AND b == 1", .and([.not(F.isOne("a")), F.isOne("b")])),
        ("NOT a == 1 OR b == 1", .or([.not(F.isOne("a")), F.isOne("b")])),
        ("NOT (a == 1 OR b == 1)", .not(.or([F.isOne("a"), F.isOne("b")]))),
        ("a == 1 AND (b == 1 OR c == 1)", .and([F.isOne("a"), .or([F.isOne("b"), F.isOne("c")])])),
        ("(a == 1 OR b == 1) AND c == 1", .and([.or([F.isOne("a"), F.isOne("b")]), F.isOne("c")])),
        ("(a == 1 AND b == 1) AND c == 1", .and([.and([F.isOne("a"), F.isOne("b")]), F.isOne("c")])),
        ("(a == 1)", F.isOne("a")),
        ("((a == 1))", F.isOne("a")),
        ("( ( a == 1 ) OR ( b == 1 ) )", .or([F.isOne("a"), F.isOne("b")])),
        ("TRUEPREDICATE AND a == 1", .and([.constant(true), F.isOne("a")])),
        ("NOT TRUEPREDICATE", .not(.constant(true))),
        ("FALSEPREDICATE OR NOT FALSEPREDICATE", .or([.constant(false), .not(.constant(false))])),
        ("NOT ANY todos.done == NO", .not(F.compare("todos.done", .equal, false, quantifier: .any)))
    ]

    @Test("AND OR NOT, precedence and parentheses", arguments: logic)
    func logicParses(format: String, expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format) == expected)
    }

    // MARK: - Offsets

    static let keyOffsets: [(String, Int)] = [
        ("name == 1", 0),
        ("  name == 1", 2),
        ("a == 1 AND category.name == 'x'", 11),
        ("#in == 1", 0),
        ("(((x == 1)))", 3),
        ("'é' == name", 8),
        ("'😀' == name", 10),
        ("ANY todos.@count > 2", 4),
        ("SELF.name == 1", 5)
    ]

    @Test("the UTF-8 offset of a key path is recorded", arguments: keyOffsets)
    func keyOffset(format: String, offset: Int) throws {
        var predicate = try FetchPredicate(format: format)
        if case .and(let parts) = predicate.node, let last = parts.last { predicate = last }
        let comparison = try #require(F.comparison(predicate))
        let recorded = F.offset(comparison.lhs) ?? F.offset(comparison.rhs)
        #expect(recorded == offset)
    }

    @Test func variableOffsetIsRecorded() throws {
        let comparison = try #require(F.comparison(try FetchPredicate(format: "a == $X")))
        #expect(F.offset(comparison.rhs) == 5)
    }

    @Test func keyPathComponentsAreSplit() throws {
        let comparison = try #require(F.comparison(try FetchPredicate(format: "category.owner.name == 'x'")))
        guard case .key(let key) = comparison.lhs.node else {
            Issue.record("expected a key, got \(comparison.lhs)")
            return
        }
        #expect(key.components == ["category", "owner", "name"])
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let comparison = try #require(F.comparison(try FetchPredicate(format: "a == -0.0")))
        guard case .value(.double(let value)) = comparison.rhs.node else {
            Issue.record("expected a double, got \(comparison.rhs)")
            return
        }
        #expect(value.sign == .minus)
    }
}

// MARK: - Fixture

/// Short constructors for the expected predicates of the format-string tests.
enum FormatFixture {
    typealias Operand = FetchPredicate.Operand

    static func key(_ path: String) -> Operand { .key(FetchPredicate.Key(path)) }
    static func count(_ path: String) -> Operand { .count(FetchPredicate.Key(path)) }
    static func variable(_ name: String) -> Operand { .variable(name, offset: nil) }

    /// `lhs op rhs` as a predicate.
    static func compare(
        _ lhs: Operand, _ op: FetchPredicate.Operator, _ rhs: Operand,
        _ options: FetchPredicate.StringOptions = [], quantifier: FetchPredicate.Quantifier = .one
    ) -> FetchPredicate {
        .comparison(FetchPredicate.Comparison(lhs, op, rhs, options: options, quantifier: quantifier))
    }

    /// `key op constant`, the most common shape.
    static func compare(
        _ path: String, _ op: FetchPredicate.Operator, _ constant: Value,
        _ options: FetchPredicate.StringOptions = [], quantifier: FetchPredicate.Quantifier = .one
    ) -> FetchPredicate {
        compare(key(path), op, .value(constant), options, quantifier: quantifier)
    }

    /// `path == 1`, for precedence tests.
    static func isOne(_ path: String) -> FetchPredicate { compare(path, .equal, .integer(1)) }

    /// The comparison inside `predicate`, or `nil`.
    static func comparison(_ predicate: FetchPredicate) -> FetchPredicate.Comparison? {
        if case .comparison(let comparison) = predicate.node { return comparison }
        return nil
    }

    /// The offset recorded in an operand (key, count or variable).
    static func offset(_ operand: Operand) -> Int? {
        switch operand.node {
        case .key(let key), .count(let key): return key.offset
        case .variable(_, let offset): return offset
        default: return nil
        }
    }
}
