import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

private typealias F = FormatFixture

@Suite("Format parser: hostile input neither crashes nor hangs")
struct FormatHostileInputTests {
    static let depthLimit = "nesting deeper than 100"

    /// A guard against quadratic parsing, not a speed claim (those live in the benchmarks): linear parsing
    /// of these inputs takes milliseconds, quadratic parsing hours; the bound leaves room for a loaded machine.
    static let hangBound = Duration.seconds(30)

    @Test func hundredThousandOpenParenthesesAreRejected() {
        let format = String(repeating: "(", count: 100_000) + "a == 1"
        #expect(throws: FetchKitError.invalidPredicate(Self.depthLimit, offset: 100)) {
            try FetchPredicate(format: format)
        }
    }

    @Test func hundredThousandNotsAreRejected() {
        #expect(throws: FetchKitError.invalidPredicate(Self.depthLimit, offset: 400)) {
            try FetchPredicate(format: String(repeating: "NOT ", count: 100_000) + "a == 1")
        }
        #expect(throws: FetchKitError.invalidPredicate(Self.depthLimit, offset: 100)) {
            try FetchPredicate(format: String(repeating: "!", count: 100_000) + "a == 1")
        }
        #expect(throws: FetchKitError.invalidPredicate(Self.depthLimit, offset: 100)) {
            try FetchPredicate(format: String(repeating: "!(", count: 100_000))
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let parens = String(repeating: "(", count: 100) + "a == 1" + String(repeating: ")", count: 100)
        #expect(try FetchPredicate(format: parens) == F.isOne("a"))

        var expected = F.isOne("a")
        for _ in 0..<100 { expected = .not(expected) }
        let nots = try FetchPredicate(format: String(repeating: "NOT ", count: 100) + "a == 1")
        #expect(nots == expected)
        #expect(try FetchPredicate(format: nots.predicateFormat) == expected)

        // Parentheses and NOTs count together, and a closed group gives its depth back.
        let mixed = String(repeating: "NOT (", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        var half = F.isOne("a")
        for _ in 0..<50 { half = .not(half) }
        #expect(try FetchPredicate(format: mixed + " AND " + mixed) == .and([half, half]))
        #expect(throws: FetchKitError.invalidPredicate(Self.depthLimit, offset: 250)) {
            try FetchPredicate(format: String(repeating: "NOT (", count: 51) + "a == 1")
        }
    }

    /// The deepest tree the parser accepts (each group adds an OR and an AND) can be compared, hashed,
    /// rendered, substituted and freed on a thread with a 512 KB stack, the smallest common default.
    @Test func deepestPredicateIsSafeOnASmallStack() async throws {
        let format =
            String(repeating: "(a == 1 OR b == $B AND ", count: 100) + "a == 1"
            + String(repeating: ")", count: 100)
        let worked = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let thread = Thread {
                do {
                    let predicate = try FetchPredicate(format: format)
                    let copy = try FetchPredicate(format: predicate.predicateFormat)
                    let substituted = try predicate.substituting(["B": 2])
                    continuation.resume(
                        returning: predicate == copy && predicate.hashValue == copy.hashValue
                            && substituted != predicate)
                } catch {
                    continuation.resume(returning: false)
                }
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        #expect(worked)
    }

    @Test func hundredKilobyteStringLiteralParsesQuickly() throws {
        let text = String(repeating: "abcdefghij", count: 10_000)
        let clock = ContinuousClock()
        var predicate = FetchPredicate.false
        let elapsed = try clock.measure {
            predicate = try FetchPredicate(format: "title == '\(text)'")
        }
        #expect(predicate == F.compare("title", .equal, .text(text)))
        #expect(elapsed < Self.hangBound)
    }

    @Test func hundredKilobyteStringWithEscapesParsesQuickly() throws {
        let clock = ContinuousClock()
        var predicate = FetchPredicate.false
        let elapsed = try clock.measure {
            predicate = try FetchPredicate(format: "t == \"" + String(repeating: "\\\"\\n", count: 25_000) + "\"")
        }
        #expect(predicate == F.compare("t", .equal, .text(String(repeating: "\"\n", count: 25_000))))
        #expect(elapsed < Self.hangBound)
    }

    @Test func longInputsOfOtherKindsParseQuickly() throws {
        let clock = ContinuousClock()
        let name = String(repeating: "k", count: 100_000)
        let conjunction = Array(repeating: "a == 1", count: 10_000).joined(separator: " AND ")
        let list = "a IN {" + Array(repeating: "1", count: 20_000).joined(separator: ",") + "}"
        let decimal = "a == 0." + String(repeating: "1", count: 100_000)
        var results: [FetchPredicate] = []
        let elapsed = try clock.measure {
            results = try [name + " == 1", conjunction, list, decimal].map { try FetchPredicate(format: $0) }
        }
        #expect(results.count == 4)
        #expect(results.first == F.isOne(name))
        #expect(results.dropFirst().first == .and(Array(repeating: F.isOne("a"), count: 10_000)))
        #expect(results.dropFirst(2).first == F.compare(F.key("a"), .in, .list(Array(repeating: 1, count: 20_000))))
        #expect(results.last == F.compare("a", .equal, .double(Double("0." + String(repeating: "1", count: 17)) ?? 0)))
        #expect(elapsed < Self.hangBound)
    }

    @Test func hugeNumbersAreRejectedWithAShortMessage() {
        let digits = String(repeating: "9", count: 100_000)
        do {
            _ = try FetchPredicate(format: "a == " + digits)
            Issue.record("a 100,000-digit integer parsed")
        } catch let error as FetchKitError where error.code == .invalidPredicate {
            let message = error.message
            let offset = error.offset
            #expect(offset == 5)
            #expect(message.hasSuffix("' does not fit in 64 bits"))
            #expect(message.count < 100)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// (format, message, offset)
    static let malformed: [(String, String, Int?)] = [
        ("title == '" + String(repeating: "x", count: 100_000), "unterminated string starting", 9),
        ("title == \"abc' AND b == 'x", "unterminated string starting", 9),
        (String(repeating: ")", count: 100_000), "unexpected ')'", 0),
        ("a IN " + String(repeating: "{", count: 100_000), "a list cannot contain a list", 6),
        (String(repeating: "%", count: 3), "unexpected '%%'", 0),
        ("a == 1 AND %", "stray '%'", 11),
        ("a == %z", "stray '%'", 5),
        ("a == 'x' \\", "stray '\\'", 9),
        ("a == 'x\\", "unterminated string starting", 5),
        ("((a == 1)", "expected ')'", 9),
        ("(a == 1))", "unexpected ')'", 8),
        ("\u{0}", "unexpected character U+0000", 0),
        ("a == 1\u{0}", "unexpected character U+0000", 6)
    ]

    @Test("malformed input is rejected with an offset", arguments: malformed)
    func malformedInput(format: String, message: String, offset: Int?) {
        #expect(throws: FetchKitError.invalidPredicate(message, offset: offset)) {
            try FetchPredicate(format: format)
        }
    }

    @Test func keyArgumentCannotInjectSQL() {
        #expect(
            throws: FetchKitError.invalidPredicate(
                "%K argument 'name; DROP TABLE todo' is not a key path" + FormatArgumentTests.notAKeyPath, offset: 0)
        ) {
            try FetchPredicate(format: "%K == %@", "name; DROP TABLE todo", "x")
        }
    }

    /// Random strings from the language's own pieces: every one either parses (and round-trips through
    /// `predicateFormat`) or throws `invalidPredicate` or `unsupported` with an offset; nothing crashes.
    @Test func randomTokenSoupNeverCrashes() throws {
        let pieces = [
            "a", "b.c", "#in", "SELF", "todos.@count", "ANY", "ALL", "NONE", "==", "!=", "<", ">=", "IN", "BETWEEN",
            "BEGINSWITH[c]", "LIKE", "CONTAINS[cd]", "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", ",",
            "1", "-2.5", "0x1F", "'s'", "\"q\\\"\"", "NULL", "TRUE", "NO", "TRUEPREDICATE", "$V", "%@", "%K", "%d",
            "%%", "'", "\\", "@", "#", "[", "]", ".", "é", "CAST(0, 'NSDate')"
        ]
        var generator = FormatFuzzRandom(seed: 0x5EED)
        var parsed = 0
        for _ in 0..<3000 {
            let length = Int(generator.next() % 8) + 1
            let format = (0..<length).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                .joined(separator: " ")
            do {
                let predicate = try FetchPredicate(format: format)
                parsed += 1
                #expect(try FetchPredicate(format: predicate.predicateFormat) == predicate, "\(format)")
            } catch let error as FetchKitError where error.code == .invalidPredicate || error.code == .unsupported {
                #expect(error.offset.map { (0...format.utf8.count).contains($0) } == true, "\(format): \(error)")
            }
        }
        #expect(parsed > 0)
    }
}

/// A small deterministic random number generator (SplitMix64) for reproducible fuzzing.
typealias FormatFuzzRandom = SeededRandom
