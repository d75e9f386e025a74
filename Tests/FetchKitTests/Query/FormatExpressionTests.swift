import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

private func key(_ path: String) -> FetchPredicate.Operand { .key(FetchPredicate.Key(path)) }
private func compare(
    _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand,
    quantifier: FetchPredicate.Quantifier = .one
) -> FetchPredicate {
    .comparison(.init(lhs, op, rhs, quantifier: quantifier))
}

/// Arithmetic, parenthesised operands, lists of key paths and variables, aggregates and `SUBQUERY`: what the
/// parser builds, how `predicateFormat` writes it back, and the errors for what stays malformed.
@Suite("Format parser: expressions, aggregates and SUBQUERY")
struct FormatExpressionTests {
    /// (format, arguments, the tree it parses to)
    static let trees: [(String, [any FormatArgument], FetchPredicate)] = [
        ("(age) > 3", [], compare(key("age"), .greaterThan, .value(3))),
        ("((age)) > (3)", [], compare(key("age"), .greaterThan, .value(3))),
        ("%K IN (%@)", ["age", [1, 2]], compare(key("age"), .in, .list([1, 2]))),
        (
            "(1 + 2) * 3 == 9", [],
            compare(.arithmetic(.arithmetic(.value(1), .add, .value(2)), .multiply, .value(3)), .equal, .value(9))
        ),
        (
            "price * quantity > 100", [],
            compare(.arithmetic(key("price"), .multiply, key("quantity")), .greaterThan, .value(100))
        ),
        (
            "a + b * c - d / e == 0", [],
            compare(
                .arithmetic(
                    .arithmetic(key("a"), .add, .arithmetic(key("b"), .multiply, key("c"))), .subtract,
                    .arithmetic(key("d"), .divide, key("e"))), .equal, .value(0))
        ),
        ("a -1 == b", [], compare(.arithmetic(key("a"), .subtract, .value(1)), .equal, key("b"))),
        ("a == -1", [], compare(key("a"), .equal, .value(-1))),
        ("-a > 2", [], compare(.arithmetic(.value(0), .subtract, key("a")), .greaterThan, .value(2))),
        ("a > - 2", [], compare(key("a"), .greaterThan, .arithmetic(.value(0), .subtract, .value(2)))),
        ("i BETWEEN {lo, hi}", [], compare(key("i"), .between, .elements([key("lo"), key("hi")]))),
        (
            "$INPUT BETWEEN { $LOWER, $UPPER }", [],
            compare(
                .variable("INPUT", offset: nil), .between,
                .elements([.variable("LOWER", offset: nil), .variable("UPPER", offset: nil)]))
        ),
        ("!(y IN {x, y, 1})", [], .not(compare(key("y"), .in, .elements([key("x"), key("y"), .value(1)])))),
        ("x IN {1, 2}", [], compare(key("x"), .in, .list([1, 2]))),
        ("%@ IN tags", [5], compare(.value(5), .in, key("tags"))),
        ("'abc' BEGINSWITH name", [], compare(.value("abc"), .beginsWith, key("name"))),
        (
            "todos.@sum.estimate > 10", [],
            compare(.aggregate(.sum, collection: "todos", value: "estimate"), .greaterThan, .value(10))
        ),
        (
            "@avg.todos.priority > 2", [],
            compare(.aggregate(.avg, collection: "todos", value: "priority"), .greaterThan, .value(2))
        ),
        (
            "category.todos.@MAX.due < %@", [Date(timeIntervalSince1970: 0)],
            compare(
                .aggregate(.max, collection: "category.todos", value: "due"), .lessThan,
                .value(.date(Date(timeIntervalSince1970: 0))))
        ),
        ("%K.@min.p == 1", ["todos"], compare(.aggregate(.min, collection: "todos", value: "p"), .equal, .value(1))),
        (
            "SUBQUERY(todos, $t, $t.done == NO AND $t.priority > 2).@count > 0", [],
            compare(
                .subquery(
                    .init(
                        collection: "todos", variable: "t",
                        predicate: .and([
                            compare(key("$t.done"), .equal, .value(false)),
                            compare(key("$t.priority"), .greaterThan, .value(2))
                        ]))), .greaterThan, .value(0))
        ),
        (
            "SUBQUERY(todos, $t, SUBQUERY($t.tags, $g, $g == %@).@count > 0).@count == 1", [7],
            compare(
                .subquery(
                    .init(
                        collection: "todos", variable: "t",
                        predicate:
                            compare(
                                .subquery(
                                    .init(
                                        collection: "$t.tags", variable: "g",
                                        predicate:
                                            compare(.variable("g", offset: nil), .equal, .value(7)))), .greaterThan,
                                .value(0)))),
                .equal, .value(1))
        )
    ]

    @Test("parses to the expected tree", arguments: 0..<trees.count)
    func parses(index: Int) throws {
        let (format, arguments, expected) = Self.trees[index]
        let predicate = try FetchPredicate(format: format, argumentArray: arguments)
        #expect(predicate == expected, "\(format)")
        // And back: the rendering parses to the same tree, and renders the same again.
        let rendered = predicate.predicateFormat
        let reparsed = try FetchPredicate(format: rendered)
        #expect(reparsed == predicate, "\(format) → \(rendered)")
        #expect(reparsed.predicateFormat == rendered)
    }

    /// (format, its canonical rendering)
    static let renderings: [(String, String)] = [
        ("(a) > 3", "a > 3"),
        ("a - (b - c) == 0", "a - (b - c) == 0"),
        ("(a - b) - c == 0", "a - b - c == 0"),
        ("(a + b) * c == 0", "(a + b) * c == 0"),
        ("a / (b * c) == 0", "a / (b * c) == 0"),
        ("-(a + 1) > 0", "-(a + 1) > 0"),
        ("- 5 < a", "-(5) < a"),
        ("a == -(-5)", "a == -(-5)"),
        ("a - -5 == 0", "a - -5 == 0"),
        ("i between {lo, $HI}", "i BETWEEN {lo, $HI}"),
        ("@sum.todos.estimate > 1", "todos.@sum.estimate > 1"),
        ("subquery(todos, $t, $t.p > 1).@COUNT > 0", "SUBQUERY(todos, $t, $t.p > 1).@count > 0")
    ]

    @Test("renders canonically", arguments: renderings)
    func renders(format: String, expected: String) throws {
        let predicate = try FetchPredicate(format: format)
        #expect(predicate.predicateFormat == expected)
        #expect(try FetchPredicate(format: expected) == predicate)
    }

    /// (format, message, offset)
    static let errors: [(String, String, Int)] = [
        ("(a > 3", "expected ')'", 6),
        ("(a) >", "unexpected end of input", 5),
        ("a + > 3", "unexpected '>'", 4),
        ("todos.@sum > 3", "@sum needs a key after it, as in todos.@sum.estimate", 6),
        ("@avg.todos > 3", "@avg needs a to-many key path and a key, as in @avg.todos.estimate", 5),
        ("SUBQUERY(todos $t, x == 1).@count > 0", "expected ','", 15),
        ("SUBQUERY(todos, $t, $t.done == YES.@count > 0", "unexpected '.'", 34),
        ("SUBQUERY(1, $t, x == 1).@count > 0", "expected a key after 'SUBQUERY('", 9),
        ("a IN {1, {2}}", "a list cannot contain a list", 9)
    ]

    @Test("malformed expressions fail with a message and offset", arguments: errors)
    func fails(format: String, message: String, offset: Int) {
        #expect(throws: FetchKitError.invalidPredicate(message, offset: offset)) {
            try FetchPredicate(format: format)
        }
    }

    @Test func variablesOfASubqueryAreNotSubstituted() throws {
        let template = try FetchPredicate(
            format: "SUBQUERY(todos, $t, $t.priority > $MIN AND $t == $T).@count > 0 AND $X BETWEEN {$LO, 5}")
        let predicate = try template.substituting(["MIN": 2, "T": 4, "X": 3, "LO": 1, "t": 99])
        #expect(
            predicate
                == (try FetchPredicate(
                    format: "SUBQUERY(todos, $t, $t.priority > 2 AND $t == 4).@count > 0 AND 3 BETWEEN {1, 5}")))
        // The list of substituted variables became a list of constants, and the comparison folds.
        let validated = try FetchPredicate(format: "$X BETWEEN {$LO, $HI}")
            .substituting(["X": 3, "LO": 1, "HI": 5]).validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(validated == .true)
    }
}
