import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

private func compare(
    _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand,
    options: FetchPredicate.StringOptions = [], quantifier: FetchPredicate.Quantifier = .one
) -> FetchPredicate {
    .comparison(.init(lhs, op, rhs, options: options, quantifier: quantifier))
}

private func key(_ path: String, at offset: Int? = nil) -> FetchPredicate.Operand {
    .key(FetchPredicate.Key(path, offset: offset))
}

/// The message `predicate` fails validation with on `entity`, or `nil` when it validates.
private func failure(_ predicate: FetchPredicate, on entity: Entity = Fixtures.todo) -> String? {
    do {
        _ = try predicate.validated(for: entity, in: Fixtures.schema)
        return nil
    } catch {
        return "\(error)"
    }
}

/// The message a format string fails validation with on `Todo`.
private func failure(format: String, _ arguments: any FormatArgument..., on entity: Entity = Fixtures.todo) throws
    -> String?
{
    failure(try FetchPredicate(format: format, argumentArray: arguments), on: entity)
}

@Suite("Predicate validation")
struct ValidationTests {
    @Test func unknownKeysNameTheEntityAndOffset() throws {
        #expect(throws: FetchKitError.unknownKey("compleet", entity: "Todo", offset: 0)) {
            try compare(key("compleet", at: 0), .equal, .value(true)).validated(for: Fixtures.todo, in: Fixtures.schema)
        }
        #expect(
            failure(compare(key("compleet", at: 0), .equal, .value(true)))
                == "unknown key 'compleet' on entity Todo (offset 0)")
        #expect(
            failure(compare(key("category.nmae", at: 12), .equal, .value("x")))
                == "unknown key 'nmae' on entity Category (offset 12)")
        #expect(
            failure(compare(key("title.length"), .equal, .value(1)))
                == "key path 'title.length' continues past the attribute 'title' of Todo")
        #expect(failure(compare(key(""), .equal, .value(1))) == "unknown key '' on entity Todo")
    }

    @Test func typeMismatchesQuoteTheValue() throws {
        #expect(throws: FetchKitError.typeMismatch(key: "ordering", expected: .double, got: "\"abc\"", offset: 4)) {
            try compare(key("ordering", at: 4), .equal, .value("abc"))
                .validated(for: Fixtures.todo, in: Fixtures.schema)
        }
        #expect(
            failure(compare(key("priority", at: 0), .equal, .value("abc")))
                == #"'priority' is an integer, got "abc" (offset 0)"#)
        #expect(failure(compare(key("done"), .equal, .value(2))) == "'done' is a bool, got 2")
        #expect(failure(compare(key("title"), .in, .list(["a", 3]))) == "'title' is a text, got 3")
        #expect(failure(compare(key("due"), .between, .list([.date(Date()), "x"]))) == #"'due' is a date, got "x""#)
        #expect(failure(compare(key("category.name"), .equal, .value(1))) == "'category.name' is a text, got 1")
        #expect(
            failure(compare(.count("todos"), .greaterThan, .value("two")), on: Fixtures.category)
                == #"'todos.@count' is an integer, got "two""#)
        #expect(failure(compare(.object, .equal, .value(1)), on: Fixtures.note) == "'SELF' is a text, got 1")
        #expect(
            failure(compare(key("title"), .equal, key("priority")))
                == "'title' is a text, got 'priority' (an integer)")
        #expect(failure(compare(key("category"), .equal, .value("Work"))) == #"'category' is an integer, got "Work""#)
    }

    @Test func valuesAreCoercedToTheAttributeType() throws {
        let predicate = FetchPredicate.and([
            compare(key("done"), .equal, .value(1)),
            compare(key("ordering"), .in, .list([1, 2.5])),
            compare(key("priority"), .lessThan, .value(3.0)),
            compare(key("priority"), .lessThan, .value(2.5)),
            compare(.value(2), .lessThanOrEqual, key("priority"))
        ])
        let validated = try predicate.validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(
            validated
                == .and([
                    compare(key("done"), .equal, .value(true)),
                    compare(key("ordering"), .in, .list([.double(1), .double(2.5)])),
                    compare(key("priority"), .lessThan, .value(3)),
                    compare(key("priority"), .lessThan, .value(2.5)),
                    compare(key("priority"), .greaterThanOrEqual, .value(2))
                ]))
    }

    @Test func stringOperatorsAndOptionsNeedText() throws {
        #expect(
            failure(compare(key("priority", at: 3), .beginsWith, .value("1")))
                == "BEGINSWITH applies to text; 'priority' is an integer at offset 3")
        #expect(
            failure(compare(key("priority"), .equal, .value(1), options: .caseInsensitive))
                == "[c] applies to text; 'priority' is an integer")
        #expect(
            failure(compare(key("done"), .equal, .value(true), options: [.caseInsensitive, .diacriticInsensitive]))
                == "[cd] applies to text; 'done' is a bool")
        #expect(failure(compare(key("title"), .contains, .value(1))) == "'title' is a text, got 1")
        #expect(
            failure(compare(key("title"), .contains, .list(["a"])))
                == "CONTAINS needs a text or a key path on its right")
        #expect(failure(compare(key("title"), .like, .value("a*"), options: .diacriticInsensitive)) == nil)
    }

    @Test func toManyKeysNeedAQuantifier() throws {
        #expect(
            failure(compare(key("todos.title", at: 5), .equal, .value("x")), on: Fixtures.category)
                == "'todos.title' crosses the to-many relationship 'todos': use ANY, ALL or NONE, "
                + "@count, an aggregate such as @sum, or SUBQUERY at offset 5")
        #expect(
            failure(compare(key("title", at: 4), .equal, .value("x"), quantifier: .any))
                == "ANY needs a key path that crosses a to-many relationship; 'title' does not at offset 4")
        #expect(
            failure(compare(key("title"), .equal, .value("x"), quantifier: .all))
                == "ALL needs a key path that crosses a to-many relationship; 'title' does not")
        #expect(
            failure(compare(key("name"), .equal, key("todos.title")), on: Fixtures.category)
                == "'todos.title' crosses the to-many relationship 'todos'; "
                + "only the left side of a comparison may be quantified")
        #expect(
            failure(compare(key("todos.title"), .equal, .value("x"), quantifier: .none), on: Fixtures.category)
                == nil)
        #expect(failure(compare(key("category.todos.title"), .equal, .value("x"), quantifier: .any)) == nil)
        #expect(
            failure(compare(key("category.todos.category.todos.id"), .equal, .value(1), quantifier: .any))
                == "'category.todos.category.todos.id' crosses more than one to-many relationship")
    }

    @Test func countNeedsAToManyRelationship() throws {
        #expect(
            failure(compare(.count(FetchPredicate.Key("title", offset: 2)), .greaterThan, .value(1)))
                == "@count needs a to-many relationship; 'title' is not one at offset 2")
        #expect(
            failure(compare(.count("category"), .greaterThan, .value(1)))
                == "@count needs a to-many relationship; 'category' is not one")
        #expect(failure(compare(.count("category.todos"), .greaterThan, .value(1))) == nil)
        #expect(
            failure(compare(.count("todos"), .greaterThan, .value(1), quantifier: .any), on: Fixtures.category)
                == "ANY needs a key path that crosses a to-many relationship on its left")
    }

    @Test func structuralErrors() throws {
        #expect(
            failure(compare(key("title"), .equal, .variable("NAME", offset: 9)))
                == "$NAME has no value at offset 9")
        #expect(failure(compare(.variable("X", offset: 0), .equal, .value(1))) == "$X has no value at offset 0")
        let between = "BETWEEN needs a list of two values on its right"
        #expect(failure(compare(key("priority"), .between, .list([1]))) == between)
        #expect(failure(compare(key("priority"), .between, .value(1))) == between)
        #expect(failure(compare(key("priority"), .in, .value(1))) == "IN needs a list on its right")
        #expect(failure(compare(key("priority"), .equal, .list([1]))) == "a list needs IN or BETWEEN, not ==")
        // Two constants: an equality or ordering folds to a constant; a string operator has nothing to fold.
        #expect(failure(compare(.value(1), .equal, .value(1))) == nil)
        #expect(
            failure(compare(.value("abc"), .contains, .value("b")))
                == "a comparison needs a key path, SELF or @count on one side")
        // A constant text on the left of BEGINSWITH, ENDSWITH or CONTAINS searches it for the key path's value.
        #expect(failure(compare(.value("a"), .beginsWith, key("title"))) == nil)
        #expect(
            failure(compare(.value("a"), .like, key("title")))
                == "LIKE needs a key path on its left, or a text on its left and a key path on its right")
        #expect(
            failure(compare(.value("a"), .contains, key("priority")))
                == "CONTAINS applies to text; 'priority' is an integer")
        #expect(
            failure(.not(.or([.and([compare(key("nope"), .equal, .value(1))])])))
                == "unknown key 'nope' on entity Todo")
    }

    @Test func relationshipsAndSelfCompareKeys() throws {
        #expect(failure(compare(key("category"), .equal, .value(3))) == nil)
        #expect(failure(compare(key("category"), .in, .list([1, 2]))) == nil)
        #expect(failure(compare(.object, .in, .list([1, 2]))) == nil)
        #expect(failure(compare(.object, .equal, key("id"))) == nil)
        #expect(failure(compare(key("todos"), .equal, .value(1), quantifier: .any), on: Fixtures.category) == nil)
    }

    @Test func messagesThroughTheFormatParser() throws {
        #expect(try failure(format: "compleet == YES") == "unknown key 'compleet' on entity Todo (offset 0)")
        #expect(
            try failure(format: "done == NO AND category.nmae == 'x'")
                == "unknown key 'nmae' on entity Category (offset 15)")
        #expect(try failure(format: "ordering == %@", "abc") == #"'ordering' is a double, got "abc" (offset 0)"#)
        #expect(
            try failure(format: "priority BEGINSWITH '1'")
                == "BEGINSWITH applies to text; 'priority' is an integer at offset 0")
        #expect(try failure(format: "title == $NAME") == "$NAME has no value at offset 9")
        #expect(try failure(format: "ANY todos.title == 'x'", on: Fixtures.category) == nil)
        #expect(
            try failure(format: "todos.title == 'x'", on: Fixtures.category)
                == "'todos.title' crosses the to-many relationship 'todos': use ANY, ALL or NONE, "
                + "@count, an aggregate such as @sum, or SUBQUERY at offset 0")
        #expect(try failure(format: "todos.@count > 2 AND name BEGINSWITH[cd] 'w'", on: Fixtures.category) == nil)
        #expect(try failure(format: "category == 3 AND SELF IN {1, 2}") == nil)
    }
}
