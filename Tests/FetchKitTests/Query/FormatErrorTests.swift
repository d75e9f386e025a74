import FetchKit
import Testing

@Suite("Format parser: errors and their offsets")
struct FormatErrorTests {
    /// (format, message, offset): the exact error each malformed string throws.
    static let syntaxErrors: [(String, String, Int)] = [
        ("", "empty format string", 0),
        ("   \n\t", "empty format string", 0),
        ("a ==", "unexpected end of input", 4),
        ("a == 1 AND", "unexpected end of input", 10),
        ("NOT", "unexpected end of input", 3),
        ("a", "expected a comparison operator", 1),
        ("a 1", "expected a comparison operator", 2),
        ("a b == 1", "expected a comparison operator", 2),
        ("TRUE", "expected a comparison operator", 4),
        ("a == 1 b == 2", "unexpected 'b'", 7),
        ("a == 1 foo", "unexpected 'foo'", 7),
        ("a == 1 NOT b == 2", "unexpected 'NOT'", 7),
        ("a == 1 TRUEPREDICATE", "unexpected 'TRUEPREDICATE'", 7),
        ("a == 1 == 2", "unexpected '=='", 7),
        ("a == 1)", "unexpected ')'", 6),
        ("(a == 1", "expected ')'", 7),
        ("((a == 1) OR (b == 2 AND c == 3)", "expected ')'", 32),
        ("(a == 1 b == 2)", "expected ')'", 8),
        ("()", "unexpected ')'", 1),
        ("a == (1", "expected ')'", 7),
        ("a == 'abc", "unterminated string starting", 5),
        ("name == \"abc", "unterminated string starting", 8),
        ("a == 'abc\\", "unterminated string starting", 5),
        ("a == 'abc\\'", "unterminated string starting", 5),
        ("a == 'a\\0b'", "'\\0' is not allowed: a string cannot contain NUL", 7),
        ("a == 'a\\u0000'", "'\\u0000' is not allowed: a string cannot contain NUL", 7),
        ("a == 'a\u{0}b'", "a string cannot contain a NUL character", 7),
        ("a == '\\u12'", "'\\u' needs four hexadecimal digits", 6),
        ("a == '\\uD800'", "unpaired surrogate in '\\u' escape", 6),
        ("a == '\\uDC00'", "unpaired surrogate in '\\u' escape", 6),
        ("a == \\", "stray '\\'", 5),
        ("a == %", "stray '%'", 5),
        ("a == %y", "stray '%'", 5),
        ("a == %lw", "stray '%'", 5),
        ("a == %%", "unexpected '%%'", 5),
        ("a b 1", "expected a comparison operator", 2),
        ("a == - ", "unexpected end of input", 7),
        ("a == 1 AND é == 2", "unexpected character U+00E9", 11),
        ("a == 1 AND ; == 2", "unexpected character ';'", 11),
        ("a == 9223372036854775808", "integer '9223372036854775808' does not fit in 64 bits", 5),
        ("a == -9223372036854775809", "integer '-9223372036854775809' does not fit in 64 bits", 5),
        ("a == 0x10000000000000000", "integer '0x10000000000000000' does not fit in 64 bits", 5),
        ("a == 0x", "expected digits after '0x'", 5),
        ("a == 1e999", "number '1e999' is out of range", 5),
        ("a == 12abc", "invalid number '12abc'", 5),
        ("a == 1.5.2", "invalid number '1.5.2'", 5),
        ("a == 0x1G", "invalid number '0x1G'", 5),
        ("in == 1", "unexpected 'in' (a reserved word; write #in to use it as a key)", 0),
        ("a == AND", "unexpected 'AND' (a reserved word; write #AND to use it as a key)", 5),
        ("# == 1", "expected a name after '#'", 0),
        ("a == $", "expected a variable name after '$'", 5),
        ("a == $1", "expected a variable name after '$'", 5),
        ("@count > 1", "@count needs a key path before it, as in todos.@count", 0),
        ("SELF.@count > 1", "expected a key after 'SELF.'", 5),
        ("a. == 1", "expected a key after '.'", 3),
        ("a.@sum > 1", "@sum needs a key after it, as in a.@sum.estimate", 2),
        ("a.@ > 1", "expected a name after '@'", 2),
        ("a ==[x] 'b'", "unknown option 'x' (expected c, d, n or l)", 5),
        ("a ==[cx] 'b'", "unknown option 'x' (expected c, d, n or l)", 6),
        ("a ==[] 'b'", "expected options such as c, d or cd", 5),
        ("a ==[c 'b'", "expected ']'", 7),
        ("a BETWEEN 3", "BETWEEN needs a list of two values, such as {1, 5}", 10),
        ("a BETWEEN {1}", "BETWEEN needs two values, got 1", 10),
        ("a BETWEEN {1, 2, 3}", "BETWEEN needs two values, got 3", 10),
        ("a IN {1, 2", "expected ',' or '}'", 10),
        ("a IN {1 2}", "expected ',' or '}'", 8),
        ("a IN {1, }", "unexpected '}'", 9),
        ("a IN {1, {2}}", "a list cannot contain a list", 9),
        ("a IN {1, {2}}", "a list cannot contain a list", 9),
        ("SUBQUERY(todos, t, t.done == YES).@count > 0", "SUBQUERY needs a variable such as $x second", 16),
        ("ANY == 1", "unexpected '=='", 4),
        ("a == CAST('x', 'NSNumber')", "CAST to NSNumber needs a number", 10),
        ("a == CAST('abc', 'NSData')", "CAST to NSData needs hexadecimal digits", 10),
        ("a == CAST('x', 'NSDate')", "cannot CAST this constant to NSDate", 10),
        ("a == CAST 1", "expected '(' after CAST", 10),
        ("a == CAST(1 'NSDate')", "expected ','", 12),
        ("a == CAST(1, NSDate)", "CAST needs a type name such as 'NSDate'", 13),
        ("a == CAST(1, 'NSDate'", "expected ')'", 21)
    ]

    @Test("syntax errors have an exact message and offset", arguments: syntaxErrors)
    func syntaxError(format: String, message: String, offset: Int) {
        #expect(throws: FetchKitError.invalidPredicate(message, offset: offset)) {
            try FetchPredicate(format: format)
        }
    }

    /// (format, construct, detail, offset): well-formed constructs of Foundation's grammar FetchKit refuses.
    static let unsupportedConstructs: [(String, String, String?, Int)] = [
        ("a & b", "the bitwise operator '&'", nil, 2),
        ("a | b", "the bitwise operator '|'", nil, 2),
        ("flags & 4 == 4", "the bitwise operator '&'", nil, 6),
        ("a ^ 1 == 0", "the bitwise operator '^'", nil, 2),
        ("~a == 0", "the bitwise operator '~'", nil, 0),
        ("a ** 2 > 3", "the power operator '**'", nil, 2),
        ("tags[FIRST] == 'x'", Self.index, nil, 4),
        ("tags[SIZE] > 2", Self.index, nil, 4),
        ("info['key'] == 1", Self.index, nil, 4),
        ("x isKindOfClass: %@", "the custom selector 'isKindOfClass:'", nil, 2),
        ("file UTI-CONFORMS-TO 'public.image'", "UTI-CONFORMS-TO and UTI-EQUALS", nil, 5),
        ("file UTI-EQUALS 'public.png'", "UTI-CONFORMS-TO and UTI-EQUALS", nil, 5),
        ("CAST(due, 'NSDate') > 1", "CAST of anything but a number or a string constant", nil, 5),
        ("a == CAST(b, 'NSDate')", "CAST of anything but a number or a string constant", nil, 10),
        (
            "a == CAST(1, 'NSFoo')", "the CAST type 'NSFoo'", "FetchKit casts to NSDate, NSNumber, NSString and NSData",
            13
        ),
        ("FUNCTION(a, 'b') == 1", "the function call FUNCTION(…)", Self.noCall, 0),
        ("TERNARY(a == 1, 2, 3) == 2", "the function call TERNARY(…)", Self.noCall, 0),
        ("a.@allKeys == 1", "the collection operator '@allKeys'", "FetchKit has @count, @sum, @avg, @min and @max", 2),
        (
            "SUBQUERY(todos, $t, $t.done == YES) > 0", "a SUBQUERY not followed by .@count",
            "FetchKit compiles SUBQUERY as a count", 36
        )
    ]
    static let index = "an index such as [FIRST], [LAST], [SIZE], [0] or ['key'] after a key path"
    static let noCall = "FetchKit compiles no FUNCTION, TERNARY or other call"

    @Test("refused constructs are unsupported, with the construct and its offset", arguments: unsupportedConstructs)
    func unsupportedConstruct(format: String, construct: String, detail: String?, offset: Int) {
        do {
            _ = try FetchPredicate(format: format)
            Issue.record("\(format) parsed")
        } catch let error as FetchKitError {
            #expect(error.code == .unsupported)
            #expect(error.construct == construct)
            #expect(error.offset == offset)
            #expect(error.message == construct + (detail.map { " (\($0))" } ?? ""))
            #expect(error.description == "unsupported: \(error.message) at offset \(offset)")
        } catch {
            Issue.record("\(format): \(error)")
        }
    }

    @Test func emptyInputIsMalformedAtOffsetZero() {
        for format in ["", " ", "\n\t "] {
            #expect(throws: FetchKitError.invalidPredicate("empty format string", offset: 0)) {
                try FetchPredicate(format: format)
            }
        }
        #expect(
            FetchKitError.invalidPredicate("empty format string", offset: 0).description
                == "empty format string at offset 0")
    }

    @Test func errorDescriptionNamesTheOffset() {
        let error = FetchKitError.invalidPredicate("unterminated string starting", offset: 8)
        #expect(error.description == "unterminated string starting at offset 8")
        #expect(throws: error) { try FetchPredicate(format: "name == 'abc") }
    }

    @Test func offsetsCountUTF8Bytes() {
        // 'é' is two bytes and '😀' four, so 'y' is at byte 21 although it is the 18th character.
        #expect(throws: FetchKitError.invalidPredicate("expected a comparison operator", offset: 21)) {
            try FetchPredicate(format: "'é' == '😀' AND x y")
        }
    }
}
