/// Splits a predicate format string into tokens, one at a time, working on its UTF-8 bytes.
///
/// Every error carries the UTF-8 offset of the byte where the problem is.
///
/// - Complexity: O(n) over the whole string; each byte is read a constant number of times.
struct FormatLexer {
    /// The format string's UTF-8 bytes.
    let bytes: [UInt8]
    /// The offset of the next unread byte.
    var position = 0
    /// Whether the last token read can end an operand (a name, a literal, `)`...): a `-` after it is the
    /// subtraction operator (`a -1`), elsewhere the sign of a number (`a > -1`).
    private var afterOperand = false

    init(_ format: String) {
        bytes = Array(format.utf8)
    }

    /// Reads the next token, or `.end` at the end of the input.
    mutating func next() throws(FetchKitError) -> FormatToken {
        skipWhitespace()
        let start = position
        guard let byte = peek() else { return FormatToken(kind: .end, start: start, end: start) }
        let kind: FormatToken.Kind
        switch byte {
        case _ where FormatBytes.isNameStart(byte): kind = lexWord(escaped: false)
        case UInt8(ascii: "#"): kind = try lexEscapedWord()
        case UInt8(ascii: "0")...UInt8(ascii: "9"): kind = try lexNumber()
        case UInt8(ascii: "."):
            if FormatBytes.isDigit(peek(at: 1)) { kind = try lexNumber() } else { kind = single(.dot) }
        case UInt8(ascii: "-"):
            let startsNumber =
                FormatBytes.isDigit(peek(at: 1))
                || (peek(at: 1) == UInt8(ascii: ".") && FormatBytes.isDigit(peek(at: 2)))
            kind = startsNumber && !afterOperand ? try lexNumber() : single(.arithmetic(.subtract))
        case UInt8(ascii: "'"), UInt8(ascii: "\""): kind = try lexString()
        case UInt8(ascii: "$"): kind = try lexPrefixedName(FormatToken.Kind.variable, what: "a variable name after '$'")
        case UInt8(ascii: "@"): kind = try lexPrefixedName(FormatToken.Kind.aggregate, what: "a name after '@'")
        case UInt8(ascii: "%"): kind = try lexSpecifier()
        default: kind = try lexPunctuation(byte)
        }
        afterOperand = kind.endsOperand
        return FormatToken(kind: kind, start: start, end: position)
    }

    // MARK: - Bytes

    func peek(at distance: Int = 0) -> UInt8? {
        let index = position + distance
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), FormatBytes.isWhitespace(byte) { position += 1 }
    }

    private mutating func single(_ kind: FormatToken.Kind) -> FormatToken.Kind {
        position += 1
        return kind
    }

    /// Consumes `[A-Za-z0-9_]*` and returns it.
    mutating func scanName() -> String {
        let start = position
        while let byte = peek(), FormatBytes.isNameContinuation(byte) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    // MARK: - Names

    private mutating func lexWord(escaped: Bool) -> FormatToken.Kind {
        let name = scanName()
        return .word(name, keyword: escaped ? nil : FormatKeyword(name: name))
    }

    private mutating func lexEscapedWord() throws(FetchKitError) -> FormatToken.Kind {
        guard let byte = peek(at: 1), FormatBytes.isNameStart(byte) else {
            throw FetchKitError.invalidPredicate("expected a name after '#'", offset: position)
        }
        position += 1
        return lexWord(escaped: true)
    }

    private mutating func lexPrefixedName(
        _ make: (String) -> FormatToken.Kind, what: String
    ) throws(FetchKitError) -> FormatToken.Kind {
        guard let byte = peek(at: 1), FormatBytes.isNameStart(byte) else {
            throw FetchKitError.invalidPredicate("expected \(what)", offset: position)
        }
        position += 1
        return make(scanName())
    }

    // MARK: - Format specifiers

    /// The specifiers, longest first so that `%ld` is not read as `%l` followed by `d`.
    /// Every printf conversion Foundation's predicate parser takes: integers in any length and base, floating
    /// point in any notation, C strings and characters.
    private static let specifiers: [FormatSpecifier] = {
        var specifiers: [FormatSpecifier] = [.object, .key]
        for length in ["ll", "hh", "l", "h", "q", "z", "t", "j", ""] {
            for conversion in ["d", "i", "u", "x", "X", "o"] { specifiers.append(.integer("%" + length + conversion)) }
        }
        for length in ["L", "l", ""] {
            for conversion in ["f", "F", "e", "E", "g", "G", "a", "A"] {
                specifiers.append(.double("%" + length + conversion))
            }
        }
        specifiers += [.string("%s"), .string("%S"), .character("%c"), .character("%C")]
        // Longest first.
        return specifiers.sorted { $0.spelling.utf8.count > $1.spelling.utf8.count }
    }()

    private mutating func lexSpecifier() throws(FetchKitError) -> FormatToken.Kind {
        if matches("%%") {
            position += 2
            return .percent
        }
        for specifier in Self.specifiers where matches(specifier.spelling) {
            position += specifier.spelling.utf8.count
            return .argument(specifier)
        }
        throw FetchKitError.invalidPredicate("stray '%'", offset: position)
    }

    private func matches(_ text: String) -> Bool {
        var index = position
        for byte in text.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    // MARK: - Punctuation and operators

    /// The error for a bitwise operator, which Foundation's grammar has and FetchKit does not compile.
    private static func bitwise(_ symbol: String, at offset: Int) -> FetchKitError {
        .unsupported("the bitwise operator '\(symbol)'", offset: offset)
    }

    private mutating func lexPunctuation(_ byte: UInt8) throws(FetchKitError) -> FormatToken.Kind {
        let next = peek(at: 1)
        switch byte {
        case UInt8(ascii: "("): return single(.openParen)
        case UInt8(ascii: ")"): return single(.closeParen)
        case UInt8(ascii: "{"): return single(.openBrace)
        case UInt8(ascii: "}"): return single(.closeBrace)
        case UInt8(ascii: "["): return single(.openBracket)
        case UInt8(ascii: "]"): return single(.closeBracket)
        case UInt8(ascii: ","): return single(.comma)
        case UInt8(ascii: "+"): return single(.arithmetic(.add))
        case UInt8(ascii: "/"): return single(.arithmetic(.divide))
        case UInt8(ascii: "*"):
            if next == UInt8(ascii: "*") {
                throw FetchKitError.unsupported("the power operator '**'", offset: position)
            }
            return single(.arithmetic(.multiply))
        case UInt8(ascii: "="):
            switch next {
            case UInt8(ascii: "="): return pair(.comparison(.equal))
            case UInt8(ascii: "<"): return pair(.comparison(.lessThanOrEqual))
            case UInt8(ascii: ">"): return pair(.comparison(.greaterThanOrEqual))
            default: return single(.comparison(.equal))
            }
        case UInt8(ascii: "!"):
            return next == UInt8(ascii: "=") ? pair(.comparison(.notEqual)) : single(.not)
        case UInt8(ascii: "<"):
            switch next {
            case UInt8(ascii: "="): return pair(.comparison(.lessThanOrEqual))
            case UInt8(ascii: ">"): return pair(.comparison(.notEqual))
            default: return single(.comparison(.lessThan))
            }
        case UInt8(ascii: ">"):
            if next == UInt8(ascii: "=") { return pair(.comparison(.greaterThanOrEqual)) }
            return single(.comparison(.greaterThan))
        case UInt8(ascii: "&"):
            guard next == UInt8(ascii: "&") else { throw Self.bitwise("&", at: position) }
            return pair(.and)
        case UInt8(ascii: "|"):
            guard next == UInt8(ascii: "|") else { throw Self.bitwise("|", at: position) }
            return pair(.or)
        case UInt8(ascii: "^"), UInt8(ascii: "~"):
            throw Self.bitwise(String(UnicodeScalar(byte)), at: position)
        case UInt8(ascii: "\\"):
            throw FetchKitError.invalidPredicate("stray '\\'", offset: position)
        default:
            throw FetchKitError.invalidPredicate(
                "unexpected character \(FormatBytes.describeCharacter(in: bytes, at: position))", offset: position)
        }
    }

    private mutating func pair(_ kind: FormatToken.Kind) -> FormatToken.Kind {
        position += 2
        return kind
    }
}
