@_spi(Backend) import FetchKit
import Foundation
import Testing

private typealias F = FormatFixture

@Suite("Format parser: %@ %K %d %f substitutions")
struct FormatArgumentTests {
    /// The explanation every refused `%K` argument's message ends with.
    static let notAKeyPath =
        " (keys are names of letters, digits and '_' joined by dots; declare a "
        + "column named otherwise as an attribute with such a name and column:)"

    @Test func aKeyArgumentMayHoldAnAggregate() throws {
        #expect(
            try FetchPredicate(format: "%K > 3", "todos.@sum.estimate")
                == FetchPredicate(format: "todos.@sum.estimate > 3"))
        #expect(try FetchPredicate(format: "%K > 3", "todos.@COUNT") == FetchPredicate(format: "todos.@count > 3"))
        #expect(
            try FetchPredicate(format: "category.%K > 3", "todos.@max.p")
                == FetchPredicate(format: "category.todos.@max.p > 3"))
    }
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

    /// (format, arguments, expected predicate)
    static let substitutions: [(String, [any FormatArgument], FetchPredicate)] = [
        ("a == %@", ["x"], F.compare("a", .equal, "x")),
        ("a == %@", [3], F.compare("a", .equal, 3)),
        ("a == %@", [Int64(-4)], F.compare("a", .equal, -4)),
        ("a == %@", [Int32(5)], F.compare("a", .equal, 5)),
        ("a == %@", [2.5], F.compare("a", .equal, 2.5)),
        ("a == %@", [Float(0.5)], F.compare("a", .equal, 0.5)),
        ("a == %@", [true], F.compare("a", .equal, true)),
        ("a == %@", [date], F.compare("a", .equal, .date(date))),
        ("a == %@", [Data([1, 2])], F.compare("a", .equal, .blob(Data([1, 2])))),
        ("a == %@", [uuid], F.compare("a", .equal, .text(uuid.uuidString))),
        ("a == %@", [String?.none], F.compare("a", .equal, .null)),
        ("a == %@", [String?.some("x")], F.compare("a", .equal, "x")),
        ("a == %@", [Value.null], F.compare("a", .equal, .null)),
        ("a == %@", [Value.integer(9)], F.compare("a", .equal, 9)),
        ("a IN %@", [[1, 2, 3]], F.compare(F.key("a"), .in, .list([1, 2, 3]))),
        ("a IN %@", [Set([7])], F.compare(F.key("a"), .in, .list([7]))),
        ("a IN %@", [ContiguousArray(["a", "b"])], F.compare(F.key("a"), .in, .list(["a", "b"]))),
        ("a IN %@", [["a", nil] as [String?]], F.compare(F.key("a"), .in, .list(["a", .null]))),
        ("a IN %@", [[Int]()], F.compare(F.key("a"), .in, .list([]))),
        ("a BETWEEN %@", [[1, 5]], F.compare(F.key("a"), .between, .list([1, 5]))),
        ("a BETWEEN %@", [[date, date]], F.compare(F.key("a"), .between, .list([.date(date), .date(date)]))),
        ("a IN {%@, %d}", ["x", 2], F.compare(F.key("a"), .in, .list(["x", 2]))),
        ("%@ == a", [1], F.compare(.value(1), .equal, F.key("a"))),
        ("%@ == %@", [1, 2], F.compare(.value(1), .equal, .value(2))),
        ("%K == %@", ["title", "x"], F.compare("title", .equal, "x")),
        ("%K == 1", ["category.name"], F.compare("category.name", .equal, 1)),
        ("%K == 1", ["in"], F.compare("in", .equal, 1)),
        ("%K == 1", ["_a1.b_2"], F.compare("_a1.b_2", .equal, 1)),
        ("%K > 2", ["todos.@count"], F.compare(F.count("todos"), .greaterThan, .value(2))),
        ("%K.@count > %d", ["todos", 2], F.compare(F.count("todos"), .greaterThan, .value(2))),
        ("%K.name == 1", ["category"], F.compare("category.name", .equal, 1)),
        ("%K.%K > %lu", ["category", "position", 1], F.compare("category.position", .greaterThan, 1)),
        ("ANY moods.%K == %@", ["name", "calm"], F.compare("moods.name", .equal, "calm", quantifier: .any)),
        (
            "ANY %K.%K <= %lu", ["todos", "priority", 2],
            F.compare("todos.priority", .lessThanOrEqual, 2, quantifier: .any)
        ),
        ("title CONTAINS[n] %@", ["x"], F.compare("title", .contains, "x")),
        ("title ==[cdn] %@", ["x"], F.compare("title", .equal, "x", [.caseInsensitive, .diacriticInsensitive])),
        ("title BEGINSWITH[l] %@", ["x"], F.compare("title", .beginsWith, "x")),
        ("title LIKE[cl] %@", ["x*"], F.compare("title", .like, "x*", .caseInsensitive)),
        (
            "%K.%K BEGINSWITH[c] 'A'", ["category", "name"],
            F.compare("category.name", .beginsWith, "A", .caseInsensitive)
        ),
        ("SELF.%K == 1", ["id"], F.compare("id", .equal, 1)),
        ("%K.%K > 1", ["category", "todos.@count"], F.compare(F.count("category.todos"), .greaterThan, .value(1))),
        ("a.%K.c == 1", ["b"], F.compare("a.b.c", .equal, 1)),
        ("ANY %K == %@", ["tags.name", "x"], F.compare("tags.name", .equal, "x", quantifier: .any)),
        ("%K BEGINSWITH[c] %@", ["title", "w"], F.compare("title", .beginsWith, "w", .caseInsensitive)),
        ("a == %d", [3], F.compare("a", .equal, 3)),
        ("a == %i", [Int64.max], F.compare("a", .equal, .integer(.max))),
        ("a == %u", [Int32(7)], F.compare("a", .equal, 7)),
        ("a == %ld", [-8], F.compare("a", .equal, -8)),
        ("a == %li", [8], F.compare("a", .equal, 8)),
        ("a == %lu", [8], F.compare("a", .equal, 8)),
        ("a == %lld", [Int64.min], F.compare("a", .equal, .integer(.min))),
        ("a == %lli", [9], F.compare("a", .equal, 9)),
        ("a == %llu", [9], F.compare("a", .equal, 9)),
        ("a == %f", [2.5], F.compare("a", .equal, 2.5)),
        ("a == %lf", [Float(1.5)], F.compare("a", .equal, 1.5)),
        ("a == %f", [3], F.compare("a", .equal, 3.0)),
        // Every printf spelling Foundation's parser takes, with the argument type it gives it.
        ("a == %e", [2.5], F.compare("a", .equal, 2.5)),
        ("a == %E", [2.5], F.compare("a", .equal, 2.5)),
        ("a == %g", [0.125], F.compare("a", .equal, 0.125)),
        ("a == %G", [4], F.compare("a", .equal, 4.0)),
        ("a == %a", [1.5], F.compare("a", .equal, 1.5)),
        ("a == %la", [1.5], F.compare("a", .equal, 1.5)),
        ("a == %le", [1e300], F.compare("a", .equal, 1e300)),
        ("a == %Lg", [2.0], F.compare("a", .equal, 2.0)),
        ("a == %x", [255], F.compare("a", .equal, 255)),
        ("a == %X", [255], F.compare("a", .equal, 255)),
        ("a == %o", [8], F.compare("a", .equal, 8)),
        ("a == %lx", [16], F.compare("a", .equal, 16)),
        ("a == %hd", [-32_768], F.compare("a", .equal, -32_768)),
        ("a == %hhd", [-3], F.compare("a", .equal, -3)),
        ("a == %hu", [65_535], F.compare("a", .equal, 65_535)),
        ("a == %zd", [12], F.compare("a", .equal, 12)),
        ("a == %qd", [13], F.compare("a", .equal, 13)),
        ("name == %s", ["Ada"], F.compare("name", .equal, "Ada")),
        ("name BEGINSWITH %S", ["Ad"], F.compare("name", .beginsWith, "Ad")),
        ("initial == %c", ["é"], F.compare("initial", .equal, "é")),
        ("initial == %c", [65], F.compare("initial", .equal, "A")),
        ("initial == %C", [0x1F389], F.compare("initial", .equal, "🎉")),
        ("a == '%@' AND b == %@", ["x"], .and([F.compare("a", .equal, "%@"), F.compare("b", .equal, "x")])),
        ("a == \"%d\" OR b == %d", [1], .or([F.compare("a", .equal, "%d"), F.compare("b", .equal, 1)])),
        (
            "a == %@ AND b == %@ AND c == %@", [1, "two", 3.0],
            .and([F.compare("a", .equal, 1), F.compare("b", .equal, "two"), F.compare("c", .equal, 3.0)])
        )
    ]

    @Test("each argument kind substitutes", arguments: substitutions)
    func substitution(format: String, arguments: [any FormatArgument], expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format: format, argumentArray: arguments) == expected)
    }

    @Test func variadicAndArrayFormsAgree() throws {
        let variadic = try FetchPredicate(format: "a == %@ AND b IN %@ AND %K > %d", "x", [1, 2], "c", 3)
        let array = try FetchPredicate(format: "a == %@ AND b IN %@ AND %K > %d", argumentArray: ["x", [1, 2], "c", 3])
        #expect(variadic == array)
        #expect(
            variadic
                == .and([
                    F.compare("a", .equal, "x"), F.compare(F.key("b"), .in, .list([1, 2])),
                    F.compare("c", .greaterThan, 3)
                ]))
    }

    @Test func keyArgumentOffsetIsTheSpecifiers() throws {
        let first = try #require(F.comparison(try FetchPredicate(format: "  %K == 2", "b")))
        #expect(F.offset(first.lhs) == 2)
        guard case .or(let parts) = try FetchPredicate(format: "a == 1 OR %K.@count == 2", "b.c").node,
            let last = parts.last
        else {
            Issue.record("expected an OR")
            return
        }
        let second = try #require(F.comparison(last))
        #expect(F.offset(second.lhs) == 10)
    }

    @Test func argumentValuesOfCollections() {
        #expect([1, 2].formatArgumentValue == .list([1, 2]))
        #expect(Set(["a"]).formatArgumentValue == .list(["a"]))
        #expect(ContiguousArray([true]).formatArgumentValue == .list([true]))
        #expect(Int?.none.formatArgumentValue == .value(.null))
        #expect(Data([9]).formatArgumentValue == .value(.blob(Data([9]))))
        #expect("s".formatArgumentValue == .value("s"))
    }

    /// (format, arguments, message, offset)
    static let argumentErrors: [(String, [any FormatArgument], String, Int?)] = [
        ("a == %@", [], "%@ has no argument", 5),
        ("a == %@ AND b == %d", [1], "%d has no argument", 17),
        ("%K == 1", [], "%K has no argument", 0),
        ("a == %lld", [], "%lld has no argument", 5),
        ("a == 1", [1], "1 argument given, 0 used", 6),
        ("a == %@", [1, 2], "2 arguments given, 1 used", 7),
        ("a == '%@'", ["x"], "1 argument given, 0 used", 9),
        (
            "%K == 1", ["name; DROP TABLE todo"],
            "%K argument 'name; DROP TABLE todo' is not a key path" + FormatArgumentTests.notAKeyPath, 0
        ),
        (
            "%K == 1", ["x; DROP TABLE t"],
            "%K argument 'x; DROP TABLE t' is not a key path" + FormatArgumentTests.notAKeyPath, 0
        ),
        ("a == 1 AND %K == 1", [""], "%K argument '' is not a key path" + FormatArgumentTests.notAKeyPath, 11),
        ("%K == 1", ["a..b"], "%K argument 'a..b' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        ("%K == 1", ["1abc"], "%K argument '1abc' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        ("%K == 1", ["a.b."], "%K argument 'a.b.' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        ("a.%K == 1", ["b c"], "%K argument 'b c' is not a key path" + FormatArgumentTests.notAKeyPath, 2),
        ("a.%K == 1", [3], "%K needs a string argument, got an integer", 2),
        ("a.%@ == 1", ["b"], "expected a key after '.'", 2),
        ("%K == 1", ["@count"], "%K argument '@count' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        ("%K == 1", ["todos.@sum"], "%K argument 'todos.@sum' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        (
            "%K == 1", ["todos.@allKeys.x"],
            "%K argument 'todos.@allKeys.x' is not a key path" + FormatArgumentTests.notAKeyPath, 0
        ),
        ("%K == 1", ["na me"], "%K argument 'na me' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        ("%K == 1", ["\"name\""], "%K argument '\"name\"' is not a key path" + FormatArgumentTests.notAKeyPath, 0),
        ("%K == 1", [3], "%K needs a string argument, got an integer", 0),
        ("%K == 1", [["a"]], "%K needs a string argument, got a list of 1 value", 0),
        ("a == %d", ["x"], "%d needs an integer argument, got a text", 5),
        ("a == %d", [2.5], "%d needs an integer argument, got a double", 5),
        ("a == %i", [true], "%i needs an integer argument, got a bool", 5),
        ("a == %ld", [String?.none], "%ld needs an integer argument, got NULL", 5),
        ("a == %d", [[1, 2]], "%d needs an integer argument, got a list of 2 values", 5),
        ("a == %f", ["x"], "%f needs a number argument, got a text", 5),
        ("a == %e", ["x"], "%e needs a number argument, got a text", 5),
        ("a == %x", [1.5], "%x needs an integer argument, got a double", 5),
        ("a == %s", [3], "%s needs a string argument, got an integer", 5),
        ("a == %c", ["ab"], "%c needs a one-character string or a code point argument, got a text", 5),
        ("a == %c", [-1], "%c argument -1 is not a character's code point", 5),
        ("a == %c", [0xD800], "%c argument 55296 is not a character's code point", 5),
        ("a == %lf", [Date(timeIntervalSince1970: 0)], "%lf needs a number argument, got a date", 5),
        ("a BETWEEN %@", [[1]], "BETWEEN needs two values, got 1", 10),
        ("a BETWEEN %@", [3], "BETWEEN needs a list of two values, such as {1, 5}", 10),
        ("a IN {%@}", [[1, 2]], "a list cannot contain a list", 6)
    ]

    @Test("argument errors", arguments: argumentErrors)
    func argumentError(format: String, arguments: [any FormatArgument], message: String, offset: Int?) {
        #expect(throws: FetchKitError.invalidPredicate(message, offset: offset)) {
            try FetchPredicate(format: format, argumentArray: arguments)
        }
    }
}
