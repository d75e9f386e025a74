@_spi(Backend) import FetchKit
import Testing

/// `FetchPredicate` and `Operand` are opaque structs: apps build them with static functions named after the
/// cases of the syntax tree, which backends read through `@_spi(Backend)` as ``FetchPredicate/node``.
@Suite("FetchPredicate: builders over an SPI syntax tree")
struct FetchPredicateOpacityTests {
    /// `SUBQUERY(todos, $t, $t.done == NO)`
    static let openTodos = FetchPredicate.Subquery(
        collection: "todos", variable: "t", predicate: .comparison(.init(.key("$t.done"), .equal, .value(.bool(false))))
    )

    /// (built with the static functions, the format string that parses to the same predicate)
    static let builtAndParsed: [(FetchPredicate, String)] = [
        (.true, "TRUEPREDICATE"),
        (.false, "FALSEPREDICATE"),
        (.constant(true), "TRUEPREDICATE"),
        (
            .and([
                .comparison(.init(.key("x"), .equal, .value(.integer(1)))),
                .not(.comparison(.init(.key("y"), .lessThan, .value(.integer(2)))))
            ]),
            "x == 1 AND NOT y < 2"
        ),
        (
            .or([
                .comparison(.init(.key("t"), .beginsWith, .value(.text("a")), options: .caseInsensitive)),
                .comparison(.init(.key("todos.p"), .greaterThan, .value(.integer(1)), quantifier: .any))
            ]),
            "t BEGINSWITH[c] 'a' OR ANY todos.p > 1"
        ),
        (.comparison(.init(.key("p"), .in, .list([.integer(1), .integer(2)]))), "p IN {1, 2}"),
        (.comparison(.init(.count("todos"), .greaterThan, .value(.integer(2)))), "todos.@count > 2"),
        (.comparison(.init(.key("a"), .equal, .variable("X", offset: nil))), "a == $X"),
        (.comparison(.init(.object, .in, .list([.integer(1)]))), "SELF IN {1}"),
        (.comparison(.init(.key("p"), .between, .elements([.key("lo"), .key("hi")]))), "p BETWEEN {lo, hi}"),
        (
            .comparison(.init(.arithmetic(.key("a"), .add, .value(.integer(1))), .greaterThan, .value(.integer(2)))),
            "a + 1 > 2"
        ),
        (
            .comparison(
                .init(.aggregate(.sum, collection: "todos", value: "estimate"), .greaterThan, .value(.integer(3)))),
            "todos.@sum.estimate > 3"
        ),
        (
            .comparison(.init(.subquery(openTodos), .greaterThan, .value(.integer(0)))),
            "SUBQUERY(todos, $t, $t.done == NO).@count > 0"
        ),
        (
            .key("done") == false && (.key("p") > 2 || !(.key("notes") == nil)),
            "done == NO AND (p > 2 OR NOT notes == nil)"
        )
    ]

    @Test("a predicate built with the static functions equals the one its format string parses to")
    func builtEqualsParsed() throws {
        for (built, format) in Self.builtAndParsed {
            let parsed = try FetchPredicate(format: format)
            #expect(built == parsed, "\(format)")
            #expect(built.hashValue == parsed.hashValue, "\(format)")
            #expect(try FetchPredicate(format: built.predicateFormat) == built, "\(format)")
        }
    }

    @Test("node exposes the syntax tree under @_spi(Backend), and init(_:) rebuilds the predicate from it")
    func nodeIsTheTree() throws {
        let predicate = try FetchPredicate(format: "x == 1 AND NOT todos.@count > 2")
        guard case .and(let parts) = predicate.node, parts.count == 2,
            case .comparison(let first) = parts[0].node, case .key(let key) = first.lhs.node,
            case .value(.integer(1)) = first.rhs.node,
            case .not(let negated) = parts[1].node, case .comparison(let second) = negated.node,
            case .count(let counted) = second.lhs.node
        else {
            Issue.record("unexpected tree: \(predicate.node)")
            return
        }
        #expect(key.description == "x")
        #expect(counted.description == "todos")
        #expect(FetchPredicate(predicate.node) == predicate)
        #expect(FetchPredicate.Operand(first.lhs.node) == first.lhs)
        #expect(FetchPredicate.true.node == .constant(true))
        #expect(FetchPredicate.Operand.object.node == .object)
    }

    @Test("equality and hashing ignore where keys and variables came from")
    func hashableIgnoresOffsets() throws {
        let near = try FetchPredicate(format: "a == $X")
        let far = try FetchPredicate(format: "      a   ==   $X")
        guard case .comparison(let comparison) = far.node, case .variable(_, let offset?) = comparison.rhs.node else {
            Issue.record("expected a comparison with a variable: \(far)")
            return
        }
        #expect(offset > 10)
        #expect(near == far)
        #expect(Set([near, far]).count == 1)
        let placed = FetchPredicate.Operand.variable("X", offset: 7)
        let unplaced = FetchPredicate.Operand.variable("X", offset: nil)
        #expect(placed == unplaced)
        #expect(placed.hashValue == unplaced.hashValue)
        #expect(placed.node == unplaced.node)
        #expect(FetchPredicate.Operand.variable("Y", offset: 7) != placed)
        #expect(FetchPredicate.Operand.key(.init("a", offset: 3)) == .key("a"))
    }
}
