import FetchKit
import Testing

private typealias F = FormatFixture

@Suite("Format parser: $VARIABLE and substituting(_:)")
struct FormatVariableTests {
    /// (format, variables, expected predicate after substitution)
    static let substitutions: [(String, [String: any FormatArgument], FetchPredicate)] = [
        ("a == $X", ["X": 3], F.compare("a", .equal, 3)),
        ("a == $X", ["X": "s", "UNUSED": 1], F.compare("a", .equal, "s")),
        ("a == $X", ["X": Int?.none], F.compare("a", .equal, .null)),
        ("a IN $LIST", ["LIST": [1, 2]], F.compare(F.key("a"), .in, .list([1, 2]))),
        ("a BETWEEN $R", ["R": [1, 5]], F.compare(F.key("a"), .between, .list([1, 5]))),
        ("$X == $Y", ["X": 1, "Y": 2], F.compare(.value(1), .equal, .value(2))),
        ("a == $in", ["in": true], F.compare("a", .equal, true)),
        ("a == $x OR a == $X", ["x": 1, "X": 2], .or([F.compare("a", .equal, 1), F.compare("a", .equal, 2)])),
        (
            "NOT (a == $A AND (b == $B OR ANY c.d == $C))", ["A": 1, "B": 2, "C": 3],
            .not(
                .and([
                    F.compare("a", .equal, 1),
                    .or([
                        F.compare("b", .equal, 2), F.compare("c.d", .equal, 3, quantifier: .any)
                    ])
                ]))
        ),
        ("a == 1", [:], F.compare("a", .equal, 1)),
        ("TRUEPREDICATE", ["X": 1], .constant(true))
    ]

    @Test("substituting replaces every variable", arguments: substitutions)
    func substitution(format: String, variables: [String: any FormatArgument], expected: FetchPredicate) throws {
        let template = try FetchPredicate(format: format)
        #expect(try template.substituting(variables) == expected)
    }

    @Test func parsedVariableIsUnresolved() throws {
        let comparison = try #require(F.comparison(try FetchPredicate(format: "a == $USER")))
        #expect(comparison.rhs == .variable("USER", offset: 5))
    }

    /// (format, variables, message, offset)
    static let errors: [(String, [String: any FormatArgument], String, Int?)] = [
        ("a == $X", [:], "$X has no value", 5),
        ("a == 1 AND b == $Y", ["X": 1], "$Y has no value", 16),
        ("a == $x", ["X": 1], "$x has no value", 5),
        ("NOT (b == 1 OR $Z == 2)", [:], "$Z has no value", 15),
        ("a BETWEEN $R", ["R": 3], "BETWEEN needs a list of two values for $R", 10),
        ("a BETWEEN $R", ["R": [1, 2, 3]], "BETWEEN needs a list of two values for $R", 10)
    ]

    @Test("a missing variable is reported where it is", arguments: errors)
    func missingVariable(format: String, variables: [String: any FormatArgument], message: String, offset: Int?)
        throws
    {
        let template = try FetchPredicate(format: format)
        #expect(throws: FetchKitError.invalidPredicate(message, offset: offset)) {
            try template.substituting(variables)
        }
    }

    @Test func substitutingTwiceGivesTheSameResult() throws {
        let template = try FetchPredicate(format: "priority > $MIN AND title BEGINSWITH[c] $PREFIX")
        let first = try template.substituting(["MIN": 2, "PREFIX": "w"])
        #expect(try first.substituting([:]) == first)
        #expect(template != first)
    }
}
