import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

/// Validation of arithmetic, aggregates and `SUBQUERY` against the fixture schema: types, relationships and
/// the variables in scope, each error naming what is wrong and where.
@Suite("Predicate validation: expressions, aggregates and SUBQUERY")
struct ExpressionValidationTests {
    private func failure(_ format: String, _ arguments: [any FormatArgument] = [], on entity: Entity = Fixtures.todo)
        throws -> String?
    {
        let predicate = try FetchPredicate(format: format, argumentArray: arguments)
        do {
            _ = try predicate.validated(for: entity, in: Fixtures.schema)
            return nil
        } catch let error as FetchKitError {
            return error.description
        }
    }

    @Test func validFormsValidate() throws {
        for format in [
            "priority * 2 > ordering", "-priority < 0", "priority / 3 >= 0.5", "(priority) IN {1, ordering}",
            "3 BETWEEN {priority, 10}", "'Buy milk' BEGINSWITH title", "%@ IN category.todos"
        ] {
            #expect(try failure(format, format.contains("%@") ? [5] : []) == nil, "\(format)")
        }
        for format in [
            "todos.@sum.priority > 3", "todos.@avg.ordering < 2", "todos.@min.title == 'a'",
            "todos.@max.due < %@", "SUBQUERY(todos, $t, $t.done == NO).@count > 0",
            "SUBQUERY(todos, $t, SUBQUERY($t.category.todos, $u, $u.priority > $t.priority).@count == 0)"
                + ".@count == 1", "%@ IN todos"
        ] {
            let arguments: [any FormatArgument] = format.contains("%@") ? [format.contains("due") ? Date() : 5] : []
            #expect(try failure(format, arguments, on: Fixtures.category) == nil, "\(format)")
        }
    }

    @Test func constantArithmeticFolds() throws {
        let tomorrow = try FetchPredicate(format: "due < %@ + 86400", Date(timeIntervalSince1970: 0))
            .validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(tomorrow == (try FetchPredicate(format: "due < %@", Date(timeIntervalSince1970: 86_400))))
        let folded = try FetchPredicate(format: "priority == (1 + 2) * 3 - 10 / 4")
            .validated(for: Fixtures.todo, in: Fixtures.schema)
        let expected = try FetchPredicate(format: "priority == 6.5").validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(folded == expected)
        // x / 0 is NULL, and NULL propagates.
        #expect(
            try FetchPredicate(format: "priority == 1 / 0").validated(for: Fixtures.todo, in: Fixtures.schema)
                == (try FetchPredicate(format: "priority == nil")))
        #expect(
            try failure("priority == 9223372036854775807 + 1")
                == "9223372036854775807 + 1 overflows a 64-bit integer at offset 0")
        #expect(try failure("priority == 'a' + 1")?.contains("arithmetic needs numbers") == true)
    }

    @Test func arithmeticNeedsNumbers() throws {
        #expect(
            try failure("title + 1 == 2")?.contains("arithmetic needs numbers; 'title' is a text at offset 0") == true)
        #expect(
            try failure("due + 86400 < %@", [Date()])?
                .contains("arithmetic with the date 'due': only a constant date takes seconds") == true)
        #expect(
            try failure("done * 2 == 2")?.contains("arithmetic needs numbers; 'done' is a bool at offset 0") == true)
        #expect(
            try failure("priority * 2 == 'x'")
                == "'priority * 2' is an integer, got \"x\" (offset 0)")
    }

    @Test func aggregatesNeedAToManyPathAndAFittingAttribute() throws {
        let category = Fixtures.category
        #expect(
            try failure("category.@sum.priority > 1")
                == "@sum needs a to-many relationship; 'category' is not one at offset 0")
        #expect(
            try failure("todos.@sum.title > 1", on: category)
                == "@sum needs a number; 'todos.@sum.title' is a text at offset 11")
        #expect(
            try failure("todos.@max.done == YES", on: category)
                == "@max needs numbers, texts or dates; 'todos.@max.done' is a bool at offset 11")
        #expect(try failure("todos.@sum.nope > 1", on: category)?.contains("unknown key 'nope' on entity Todo") == true)
        #expect(
            try failure("todos.@avg.priority == 'x'", on: category)
                == "'todos.@avg.priority' is a double, got \"x\" (offset 0)")
        #expect(
            try failure("ANY todos.@sum.priority > 1", on: category)
                == "ANY needs a key path that crosses a to-many relationship on its left at offset 4")
    }

    @Test func subqueryVariablesAreScoped() throws {
        let category = Fixtures.category
        #expect(
            try failure("SUBQUERY(name, $t, $t.done == NO).@count > 0", on: category)
                == "SUBQUERY needs a to-many relationship; 'name' is not one at offset 9")
        #expect(
            try failure("SUBQUERY(todos, $t, $u.done == NO).@count > 0", on: category)
                == "$u in '$u.done' is not the variable of an enclosing SUBQUERY at offset 20")
        #expect(
            try failure("$t.done == NO")
                == "$t in '$t.done' is not the variable of an enclosing SUBQUERY at offset 0")
        #expect(
            try failure(
                "SUBQUERY(todos, $t, SUBQUERY($t.category.todos, $t, $t.done == NO).@count > 0).@count > 0",
                on: category)
                == "$t is already the variable of an enclosing SUBQUERY at offset 29")
        #expect(
            try failure("SUBQUERY(todos, $t, $t.nope == 1).@count > 0", on: category)?
                .contains("unknown key 'nope' on entity Todo") == true)
        #expect(
            try failure("SUBQUERY(todos, $t, $t.done == 'x').@count > 0", on: category)
                == "'$t.done' is a bool, got \"x\" (offset 20)")
    }

    @Test func constantsOnTheLeft() throws {
        #expect(
            try failure("'abc' LIKE title")
                == "LIKE needs a key path on its left, or a text on its left and a key path on its right at offset 11")
        #expect(
            try failure("'abc' CONTAINS 'b'")
                == "a comparison needs a key path, SELF or @count on one side")
        #expect(
            try failure("%@ IN title", [5])
                == "a constant IN a key path needs a to-many relationship on the right; 'title' is not one at offset 6")
    }
}
