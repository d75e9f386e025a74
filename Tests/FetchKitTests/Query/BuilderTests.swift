import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

private func compare(
    _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand,
    _ options: FetchPredicate.StringOptions = [], _ quantifier: FetchPredicate.Quantifier = .one
) -> FetchPredicate {
    .comparison(.init(lhs, op, rhs, options: options, quantifier: quantifier))
}

@Suite struct BuilderTests {
    @Test func comparisonsWithLiterals() {
        let cases: [(FetchPredicate, String, FetchPredicate.Operator, Value)] = [
            (.key("priority") == 2, "priority", .equal, 2),
            (.key("priority") != 2, "priority", .notEqual, 2),
            (.key("priority") < 2, "priority", .lessThan, 2),
            (.key("priority") <= 2, "priority", .lessThanOrEqual, 2),
            (.key("priority") > 2, "priority", .greaterThan, 2),
            (.key("priority") >= 2, "priority", .greaterThanOrEqual, 2),
            (.key("ordering") > -1.5, "ordering", .greaterThan, -1.5),
            (.key("done") == false, "done", .equal, false),
            (.key("title") == "Buy milk", "title", .equal, "Buy milk"),
            (.key("notes") == nil, "notes", .equal, .null),
            (.key("notes") != nil, "notes", .notEqual, .null),
            (.key("category.name") == "Work", "category.name", .equal, "Work")
        ]
        for (built, name, op, value) in cases {
            #expect(built == compare(.key(.init(name)), op, .value(value)))
        }
    }

    @Test func comparisonsWithSwiftValues() {
        let limit = 3
        let due = Date(microsecondsSince1970: 1_700_000_000_123_456)
        let missing: Int64? = nil
        let category: Int64? = 2
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        let bytes = Data([1, 2])
        let value: Value = .double(0.5)
        #expect((.key("priority") >= limit) == compare(.key("priority"), .greaterThanOrEqual, .value(3)))
        #expect((.key("due") < due) == compare(.key("due"), .lessThan, .value(.date(due))))
        #expect((.key("categoryID") == missing) == compare(.key("categoryID"), .equal, .value(.null)))
        #expect((.key("categoryID") == category) == compare(.key("categoryID"), .equal, .value(2)))
        #expect((.key("slug") != id) == compare(.key("slug"), .notEqual, .value(.text(id.uuidString))))
        #expect((.key("attachment") == bytes) == compare(.key("attachment"), .equal, .value(.blob(bytes))))
        #expect((.key("ordering") <= value) == compare(.key("ordering"), .lessThanOrEqual, .value(0.5)))
    }

    @Test func comparisonsOfTwoKeys() {
        let pairs: [(FetchPredicate, FetchPredicate.Operator)] = [
            (.key("priority") == .key("ordering"), .equal),
            (.key("priority") != .key("ordering"), .notEqual),
            (.key("priority") < .key("ordering"), .lessThan),
            (.key("priority") <= .key("ordering"), .lessThanOrEqual),
            (.key("priority") > .key("ordering"), .greaterThan),
            (.key("priority") >= .key("ordering"), .greaterThanOrEqual)
        ]
        for (built, op) in pairs {
            #expect(built == compare(.key("priority"), op, .key("ordering")))
        }
        #expect((.key("priority") == .count("todos")) == compare(.key("priority"), .equal, .count("todos")))
        let keysAreStillEquatable: Bool = FetchPredicate.key("a") == FetchPredicate.key("a")
        #expect(keysAreStillEquatable)
    }

    @Test func logicalOperatorsFlatten() {
        let a: FetchPredicate = .key("a") == 1
        let b: FetchPredicate = .key("b") == 2
        let c: FetchPredicate = .key("c") == 3
        let d: FetchPredicate = .key("d") == 4
        #expect((a && b) == .and([a, b]))
        #expect((a && b && c) == .and([a, b, c]))
        #expect(((a && b) && (c && d)) == .and([a, b, c, d]))
        #expect((a && (b && c)) == .and([a, b, c]))
        #expect((a || b || c) == .or([a, b, c]))
        #expect(((a || b) || (c || d)) == .or([a, b, c, d]))
        #expect((a && (b || c)) == .and([a, .or([b, c])]))
        #expect((a || b && c) == .or([a, .and([b, c])]))
        #expect((!a) == .not(a))
        #expect((!(a && b)) == .not(.and([a, b])))
    }

    @Test func stringOperatorsWithOptions() {
        #expect(FetchPredicate.key("title").beginsWith("Wr") == compare(.key("title"), .beginsWith, .value("Wr")))
        #expect(
            FetchPredicate.key("title").endsWith("k", .caseInsensitive)
                == compare(.key("title"), .endsWith, .value("k"), .caseInsensitive))
        #expect(
            FetchPredicate.key("notes").contains("resume", [.caseInsensitive, .diacriticInsensitive])
                == compare(.key("notes"), .contains, .value("resume"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(FetchPredicate.key("title").like("B?y *") == compare(.key("title"), .like, .value("B?y *")))
    }

    @Test func listsAndRanges() {
        #expect(FetchPredicate.key("priority").in([1, 2, 3]) == compare(.key("priority"), .in, .list([1, 2, 3])))
        #expect(FetchPredicate.key("title").in(Set(["a"])) == compare(.key("title"), .in, .list(["a"])))
        #expect(FetchPredicate.key("priority").in([Int]()) == compare(.key("priority"), .in, .list([])))
        let start = Date(microsecondsSince1970: 0)
        let end = Date(microsecondsSince1970: 86_400_000_000)
        #expect(
            FetchPredicate.key("due").between(start, end)
                == compare(.key("due"), .between, .list([.date(start), .date(end)])))
        #expect(FetchPredicate.key("priority").between(1, 3) == compare(.key("priority"), .between, .list([1, 3])))
    }

    @Test func countsAndQuantifiers() {
        let todos = FetchPredicate.Key("todos")
        #expect((.key("todos").count > 2) == compare(.count(todos), .greaterThan, .value(2)))
        #expect((.key("todos.@count") == 0) == compare(.count(todos), .equal, .value(0)))
        #expect(FetchPredicate.key("todos").count.description == "todos.@count")
        #expect(
            FetchPredicate.any("todos.priority", .greaterThan, 3)
                == compare(.key("todos.priority"), .greaterThan, .value(3), [], .any))
        #expect(
            FetchPredicate.all("todos.done", .equal, true)
                == compare(.key("todos.done"), .equal, .value(true), [], .all))
        #expect(
            FetchPredicate.none("todos.title", .beginsWith, "x", .caseInsensitive)
                == compare(.key("todos.title"), .beginsWith, .value("x"), .caseInsensitive, .none))
    }

    @Test func theDocumentedExamples() throws {
        let a = Date(microsecondsSince1970: 0)
        let b = Date(microsecondsSince1970: 1_000)
        let p: FetchPredicate =
            .key("done") == false && (.key("priority") > 2 || .key("title").beginsWith("x", .caseInsensitive))
        #expect(
            p
                == .and([
                    compare(.key("done"), .equal, .value(false)),
                    .or([
                        compare(.key("priority"), .greaterThan, .value(2)),
                        compare(.key("title"), .beginsWith, .value("x"), .caseInsensitive)
                    ])
                ]))
        let q: FetchPredicate = !(.key("notes") == nil) && .key("priority").in([1, 2, 3]) && .key("due").between(a, b)
        #expect(
            q
                == .and([
                    .not(compare(.key("notes"), .equal, .value(.null))),
                    compare(.key("priority"), .in, .list([1, 2, 3])),
                    compare(.key("due"), .between, .list([.date(a), .date(b)]))
                ]))
        let r: FetchPredicate = .any("todos.priority", .greaterThan, 3) || .key("todos").count > 2
        #expect(
            r
                == .or([
                    compare(.key("todos.priority"), .greaterThan, .value(3), [], .any),
                    compare(.count("todos"), .greaterThan, .value(2))
                ]))
        _ = try p.validated(for: Fixtures.todo, in: Fixtures.schema)
        _ = try q.validated(for: Fixtures.todo, in: Fixtures.schema)
        _ = try r.validated(for: Fixtures.category, in: Fixtures.schema)
    }

    @Test func builderAndFoundationPredicatesAgree() throws {
        let built: FetchPredicate = .key("done") == false && .key("priority") > 2 && .key("notes") != nil
        let translated = try FetchPredicate(
            #Predicate<Fixtures.TodoRecord> {
                $0.done == false && $0.priority > 2 && $0.notes != nil
            })
        #expect(built == translated)
    }
}
