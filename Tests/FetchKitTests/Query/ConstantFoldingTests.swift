import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

/// Comparisons of two constants fold to `TRUEPREDICATE` or `FALSEPREDICATE` when validated, with
/// NSPredicate's meaning; constants that cannot be compared are an error.
@Suite("Predicates: constant comparisons fold")
struct ConstantFoldingTests {
    static let cases: [(String, Bool)] = [
        ("1 BETWEEN {0, 33}", true),
        ("34 BETWEEN {0, 33}", false),
        ("0 BETWEEN {0, 0}", true),
        ("YES == YES", true),
        ("YES == NO", false),
        ("YES == 1", true),
        ("1 == 1.0", true),
        ("2.5 > 2", true),
        ("-1 >= 0", false),
        ("'b' > 'a'", true),
        ("'a' < 'B'", false),
        ("'B' ==[c] 'b'", true),
        ("'é' ==[d] 'e'", true),
        ("'a' != 'a'", false),
        ("NULL == NULL", true),
        ("NULL == 1", false),
        ("NULL != 1", true),
        ("NULL < 1", false),
        ("NULL >= NULL", false),
        ("3 IN {1, 2, 3}", true),
        ("3 IN {1, 2}", false),
        ("'x' IN {}", false),
        ("'Ab' IN[c] {'aB'}", true)
    ]

    @Test("a comparison of constants becomes a constant predicate", arguments: cases)
    func folds(format: String, truth: Bool) throws {
        let validated = try FetchPredicate(format: format).validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(validated == .constant(truth))
    }

    @Test func foldingHappensInsideCompoundsAndLeavesTheRestAlone() throws {
        let validated = try FetchPredicate(format: "2 > 1 AND priority > 3 OR NOT (1 == 1)")
            .validated(for: Fixtures.todo, in: Fixtures.schema)
        let priority = try FetchPredicate(format: "priority > 3").validated(for: Fixtures.todo, in: Fixtures.schema)
        #expect(validated == .or([.and([.constant(true), priority]), .not(.constant(true))]))
    }

    @Test func constantsThatCannotBeComparedAreAnError() {
        #expect(
            throws: FetchKitError.invalidPredicate(
                "cannot compare the constants \"a\" and 1 (a text and an integer)", offset: nil)
        ) {
            try FetchPredicate(format: "'a' == 1").validated(for: Fixtures.todo, in: Fixtures.schema)
        }
    }
}

@Suite("Dates far from 1970")
struct FarDateTests {
    @Test func aDateBeyondSixtyFourBitsOfMicrosecondsNeitherTrapsNorValidates() throws {
        // Equality and hashing of such a date used to trap converting its microseconds to Int64.
        let parsed = try FetchPredicate(format: "due == CAST(1e300, 'NSDate')")
        #expect(parsed == parsed)
        #expect(Set([parsed]).count == 1)
        #expect(Date(timeIntervalSinceReferenceDate: 1e300).microsecondsSince1970 == .max)
        #expect(Date(timeIntervalSinceReferenceDate: -1e300).microsecondsSince1970 == .min)
        #expect(!Date(timeIntervalSinceReferenceDate: 1e300).isStorable)
        #expect(Date(microsecondsSince1970: 253_402_300_799_999_999).isStorable)
        #expect(throws: FetchKitError.self) { try parsed.validated(for: Fixtures.todo, in: Fixtures.schema) }
        let near = try FetchPredicate(format: "due == CAST(1e9, 'NSDate')")
        #expect(throws: Never.self) { try near.validated(for: Fixtures.todo, in: Fixtures.schema) }
    }
}
