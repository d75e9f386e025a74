import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

private typealias Todo = Fixtures.TodoRecord

/// A record whose properties are stored under other attribute names.
private struct RenamedTodo: Record {
    enum Mood: String, Codable, Sendable { case calm, busy }

    static let entity = Entity(
        "RenamedTodo",
        attributes: [Attribute("title", .text), Attribute("done", .bool), Attribute("mood", .text)])

    enum CodingKeys: String, CodingKey {
        case id
        case name = "title"
        case isDone = "done"
        case mood
    }

    static func attributeName(forProperty name: String) -> String {
        switch name {
        case "name": return "title"
        case "isDone": return "done"
        default: return name
        }
    }

    var id: Int64?
    var name: String
    var isDone: Bool
    var mood: Mood
}

/// Stands in for Foundation's Darwin-only `PredicateExpressions.StringLocalizedStandardContains`,
/// which FetchKit recognises by name.
private struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
    StandardPredicateExpression
where Root.Output == String, Other.Output == String, Root: Codable & Sendable, Other: Codable & Sendable {
    typealias Output = Bool
    let root: Root
    let other: Other

    func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        try root.evaluate(bindings).lowercased().contains(other.evaluate(bindings).lowercased())
    }
}

private func key(_ name: String, _ op: FetchPredicate.Operator, _ value: Value) -> FetchPredicate {
    .comparison(.init(.key(.init(name)), op, .value(value)))
}

private func expectUnsupported(
    _ construct: String, sourceLocation: SourceLocation = #_sourceLocation, _ translate: () throws -> FetchPredicate
) {
    do {
        let predicate = try translate()
        Issue.record("expected \(construct) to be unsupported, got \(predicate)", sourceLocation: sourceLocation)
    } catch let error as FetchKitError where error.code == .unsupported {
        let message = error.message
        #expect(
            message.hasPrefix("#Predicate construct PredicateExpressions.\(construct)<"),
            "\(message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected .unsupported, got \(error)", sourceLocation: sourceLocation)
    }
}

@Suite struct FoundationPredicateTests {
    @Test func equalityAndInequality() throws {
        #expect(try FetchPredicate(#Predicate<Todo> { $0.title == "Buy milk" }) == key("title", .equal, "Buy milk"))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.priority != 3 }) == key("priority", .notEqual, 3))
        let name = "Fix sink"
        #expect(try FetchPredicate(#Predicate<Todo> { $0.title == name }) == key("title", .equal, "Fix sink"))
    }

    @Test func nilComparisons() throws {
        #expect(try FetchPredicate(#Predicate<Todo> { $0.notes == nil }) == key("notes", .equal, .null))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.notes != nil }) == key("notes", .notEqual, .null))
        let missing: String? = nil
        #expect(try FetchPredicate(#Predicate<Todo> { $0.notes == missing }) == key("notes", .equal, .null))
        let present: String? = "unit"
        #expect(try FetchPredicate(#Predicate<Todo> { $0.notes == present }) == key("notes", .equal, "unit"))
    }

    @Test func orderedComparisons() throws {
        #expect(try FetchPredicate(#Predicate<Todo> { $0.priority < 2 }) == key("priority", .lessThan, 2))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.priority <= 2 }) == key("priority", .lessThanOrEqual, 2))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.priority > 2 }) == key("priority", .greaterThan, 2))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.priority >= 2 }) == key("priority", .greaterThanOrEqual, 2))
        let comparison = try FetchPredicate(#Predicate<Todo> { 2 < $0.priority })
        #expect(comparison == .comparison(.init(.value(2), .lessThan, .key("priority"))))
    }

    @Test func constantsOfEveryType() throws {
        let due = Date(microsecondsSince1970: 1_700_000_000_123_456)
        #expect(try FetchPredicate(#Predicate<Todo> { $0.due! < due }) == key("due", .lessThan, .date(due)))
        let negative = try FetchPredicate(#Predicate<Todo> { $0.ordering! >= -0.5 })
        #expect(negative == key("ordering", .greaterThanOrEqual, -0.5))
        let bytes = Data([0, 255])
        let binary = try FetchPredicate(#Predicate<Todo> { $0.attachment == bytes })
        #expect(binary == key("attachment", .equal, .blob(bytes)))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.done == false }) == key("done", .equal, false))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.priority > -2 }) == key("priority", .greaterThan, -2))
        let big: Int64 = .max
        let largest = try FetchPredicate(#Predicate<Todo> { $0.categoryID == big })
        #expect(largest == key("categoryID", .equal, .integer(.max)))
    }

    @Test func booleanPropertiesAndConstantsStandAlone() throws {
        #expect(try FetchPredicate(#Predicate<Todo> { $0.done }) == key("done", .equal, true))
        #expect(try FetchPredicate(#Predicate<Todo> { !$0.done }) == .not(key("done", .equal, true)))
        #expect(try FetchPredicate(#Predicate<Todo> { _ in true }) == .true)
        #expect(try FetchPredicate(#Predicate<Todo> { _ in false }) == .false)
    }

    @Test func logicalOperatorsFlatten() throws {
        let both = try FetchPredicate(#Predicate<Todo> { !$0.done && $0.priority > 2 })
        #expect(both == .and([.not(key("done", .equal, true)), key("priority", .greaterThan, 2)]))
        let three = try FetchPredicate(#Predicate<Todo> { $0.priority > 1 && $0.priority < 5 && $0.notes != nil })
        #expect(
            three
                == .and([
                    key("priority", .greaterThan, 1), key("priority", .lessThan, 5), key("notes", .notEqual, .null)
                ]))
        let mixed = try FetchPredicate(#Predicate<Todo> { $0.priority > 2 && $0.done || $0.priority <= 1 || $0.done })
        #expect(
            mixed
                == .or([
                    .and([key("priority", .greaterThan, 2), key("done", .equal, true)]),
                    key("priority", .lessThanOrEqual, 1), key("done", .equal, true)
                ]))
        let negated = try FetchPredicate(#Predicate<Todo> { !($0.priority > 2 || $0.done) })
        #expect(negated == .not(.or([key("priority", .greaterThan, 2), key("done", .equal, true)])))
    }

    @Test func arrayContainsIsIn() throws {
        let literal = try FetchPredicate(#Predicate<Todo> { [1, 2, 5].contains($0.priority) })
        #expect(literal == .comparison(.init(.key("priority"), .in, .list([1, 2, 5]))))
        let titles = ["Fix sink", "Call mom"]
        let captured = try FetchPredicate(#Predicate<Todo> { titles.contains($0.title) })
        #expect(captured == .comparison(.init(.key("title"), .in, .list(["Fix sink", "Call mom"]))))
        let none: [Int] = []
        let empty = try FetchPredicate(#Predicate<Todo> { none.contains($0.priority) })
        #expect(empty == .comparison(.init(.key("priority"), .in, .list([]))))
    }

    @Test func rangesAreBetween() throws {
        let closed = try FetchPredicate(#Predicate<Todo> { (1...3).contains($0.priority) })
        #expect(closed == .comparison(.init(.key("priority"), .between, .list([1, 3]))))
        let halfOpen = try FetchPredicate(#Predicate<Todo> { (1..<3).contains($0.priority) })
        #expect(halfOpen == .and([key("priority", .greaterThanOrEqual, 1), key("priority", .lessThan, 3)]))
        let start = Date(microsecondsSince1970: 0)
        let end = Date(microsecondsSince1970: 1_000_000)
        let window = start...end
        let captured = try FetchPredicate(#Predicate<Todo> { window.contains($0.due!) })
        #expect(captured == .comparison(.init(.key("due"), .between, .list([.date(start), .date(end)]))))
    }

    @Test func stringOperators() throws {
        let contains = try FetchPredicate(#Predicate<Todo> { $0.title.contains("milk") })
        #expect(contains == key("title", .contains, "milk"))
        let starts = try FetchPredicate(#Predicate<Todo> { $0.title.starts(with: "Wr") })
        #expect(starts == key("title", .beginsWith, "Wr"))
        let unwrapped = try FetchPredicate(#Predicate<Todo> { $0.notes != nil && $0.notes!.starts(with: "n") })
        #expect(unwrapped == .and([key("notes", .notEqual, .null), key("notes", .beginsWith, "n")]))
    }

    @Test func localizedStandardContainsIsCaseAndDiacriticInsensitive() throws {
        let predicate = Predicate<Todo> { todo in
            StringLocalizedStandardContains(
                root: PredicateExpressions.KeyPath(root: todo, keyPath: \Todo.title),
                other: PredicateExpressions.Value("cafe"))
        }
        let expected = FetchPredicate.comparison(
            .init(.key("title"), .contains, .value("cafe"), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(try FetchPredicate(predicate) == expected)
    }

    @Test func renamedPropertiesAndRawValueEnums() throws {
        let predicate = try FetchPredicate(#Predicate<RenamedTodo> { $0.isDone && $0.name == "a" })
        #expect(predicate == .and([key("done", .equal, true), key("title", .equal, "a")]))
        let calm = RenamedTodo.Mood.calm
        #expect(try FetchPredicate(#Predicate<RenamedTodo> { $0.mood == calm }) == key("mood", .equal, "calm"))
    }

    @Test func translatedPredicatesValidateAgainstTheSchema() throws {
        let predicate = try FetchPredicate(#Predicate<Todo> { $0.priority > 2 && $0.notes == nil })
        let validated = try predicate.validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(validated == predicate)
    }

    @Test func unsupportedConstructsAreNamed() {
        expectUnsupported("Arithmetic") { try FetchPredicate(#Predicate<Todo> { $0.priority + 1 > 3 }) }
        expectUnsupported("UnaryMinus") { try FetchPredicate(#Predicate<Todo> { -$0.priority > 3 }) }
        expectUnsupported("NilCoalesce") { try FetchPredicate(#Predicate<Todo> { ($0.ordering ?? 0) > 1 }) }
        expectUnsupported("Conditional") { try FetchPredicate(#Predicate<Todo> { $0.done ? true : false }) }
        expectUnsupported("OptionalFlatMap") {
            try FetchPredicate(#Predicate<Todo> { $0.notes.flatMap { $0.contains("a") } == true })
        }
        expectUnsupported("KeyPath") { try FetchPredicate(#Predicate<Todo> { $0.title.isEmpty }) }
        expectUnsupported("KeyPath") { try FetchPredicate(#Predicate<Todo> { $0.title.count > 2 }) }
        expectUnsupported("SequenceContainsWhere") {
            try FetchPredicate(#Predicate<Todo> { todo in ["a", "b"].contains { $0 == todo.title } })
        }
        expectUnsupported("SequenceAllSatisfy") {
            try FetchPredicate(#Predicate<Todo> { todo in ["a", "b"].allSatisfy { $0 == todo.title } })
        }
        let other = Todo(title: "other")
        expectUnsupported("Variable") { try FetchPredicate(#Predicate<Todo> { $0 == other }) }
    }
}
