import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

/// `#Predicate`'s `contains` and `starts(with:)` keep Swift's meaning of an empty needle (true), which the
/// translation spells out, since `CONTAINS` and `BEGINSWITH` follow NSPredicate's (false).
@Suite("#Predicate: empty needles")
struct FoundationPredicateEmptyNeedleTests {
    typealias Todo = Fixtures.TodoRecord

    static func comparison(_ lhs: String, _ op: FetchPredicate.Operator, _ rhs: FetchPredicate.Operand)
        -> FetchPredicate
    {
        .comparison(.init(.key(.init(lhs)), op, rhs))
    }

    @Test func aConstantEmptyNeedleIsAPresenceTest() throws {
        let present = Self.comparison("title", .notEqual, .value(.null))
        #expect(try FetchPredicate(#Predicate<Todo> { $0.title.contains("") }) == present)
        #expect(try FetchPredicate(#Predicate<Todo> { $0.title.starts(with: "") }) == present)
        let empty = ""
        #expect(try FetchPredicate(#Predicate<Todo> { $0.title.contains(empty) }) == present)
    }

    @Test func anotherConstantIsAPlainComparison() throws {
        #expect(
            try FetchPredicate(#Predicate<Todo> { $0.title.contains("a") })
                == Self.comparison("title", .contains, .value("a")))
    }

    @Test func aKeyPathNeedleMayBeEmpty() throws {
        let translated = try FetchPredicate(#Predicate<Todo> { $0.title.contains($0.notes!) })
        #expect(
            translated
                == .or([
                    Self.comparison("title", .contains, .key("notes")),
                    .and([
                        Self.comparison("notes", .equal, .value("")), Self.comparison("title", .notEqual, .value(.null))
                    ])
                ]))
    }

    @Test func formatStringsKeepNSPredicatesMeaning() throws {
        #expect(try FetchPredicate(format: "title CONTAINS ''") == Self.comparison("title", .contains, .value("")))
    }
}
