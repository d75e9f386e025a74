import FetchKit
import FetchKitTesting
import Testing

private typealias F = FormatFixture

/// Escapes in quoted strings, as Foundation's lexer reads them: `\'`, `\"`, `\\`, `\n`, `\t`, `\r` and `\uXXXX`
/// are decoded; any other is kept as written, so inline regular expressions and escaped wildcards reach their
/// operators intact; `\0` stays refused (no string holds NUL).
@Suite("Format parser: string escapes")
struct FormatEscapeTests {
    static let cases: [(String, FetchPredicate)] = [
        (#"name MATCHES '\d+\.\w*'"#, F.compare("name", .matches, #"\d+\.\w*"#)),
        (#"name LIKE 'a\*b\?'"#, F.compare("name", .like, #"a\*b\?"#)),
        (#"name == 'tab\there'"#, F.compare("name", .equal, "tab\there")),
        (#"name == "q\"uote\\d""#, F.compare("name", .equal, #"q"uote\d"#)),
        (#"name == '\é'"#, F.compare("name", .equal, #"\é"#)),
        (#"name == 'ends with \\'"#, F.compare("name", .equal, #"ends with \"#)),
        (#"name == '\u00e9\q'"#, F.compare("name", .equal, #"é\q"#))
    ]

    @Test("escapes decode or stay as written, and round-trip through predicateFormat", arguments: cases)
    func escapes(format: String, expected: FetchPredicate) throws {
        let parsed = try FetchPredicate(format: format)
        #expect(parsed == expected)
        #expect(try FetchPredicate(format: parsed.predicateFormat) == parsed, "\(parsed.predicateFormat)")
    }

    @Test func aBackslashBeforeTheClosingQuoteStillEscapesIt() {
        #expect(throws: FetchKitError.invalidPredicate("unterminated string starting", offset: 8)) {
            try FetchPredicate(format: #"name == 'abc\'"#)
        }
    }
}
