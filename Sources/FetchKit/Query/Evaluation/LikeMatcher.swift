/// A SQL `LIKE` pattern with `ESCAPE '\'`, matched in memory as SQLite (with `case_sensitive_like`) and
/// PostgreSQL match it: `%` any run of characters, `_` exactly one character (a Unicode code point), `\x`
/// the character `x` itself, everything else compared code point by code point.
struct LikeMatcher: Sendable {
    enum Token: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case one
        case run
    }

    let tokens: [Token]
    /// The common shapes, matched without copying the text: a literal, `lit%`, `%lit`, `%lit%`.
    private let shape: Shape?

    private enum Shape: Sendable {
        case equal([UInt8])
        case prefix([UInt8])
        case suffix([UInt8])
        case contains([UInt8])
    }

    /// Parses a pattern as ``LikePattern`` writes them.
    init(sqlPattern: String) {
        var tokens: [Token] = []
        var escaping = false
        for scalar in sqlPattern.unicodeScalars {
            if escaping {
                tokens.append(.scalar(scalar))
                escaping = false
                continue
            }
            switch scalar {
            case "\\": escaping = true
            case "%": if tokens.last != .run { tokens.append(.run) }
            case "_": tokens.append(.one)
            default: tokens.append(.scalar(scalar))
            }
        }
        // A trailing lone escape matches nothing in either database; LikePattern never writes one.
        if escaping { tokens.append(.scalar("\\")) }
        self.tokens = tokens
        self.shape = Self.shape(of: tokens)
    }

    private static func shape(of tokens: [Token]) -> Shape? {
        let leading = tokens.first == .run
        let trailing = tokens.count > (leading ? 1 : 0) && tokens.last == .run
        let middle = tokens.dropFirst(leading ? 1 : 0).dropLast(trailing ? 1 : 0)
        var literal = ""
        for token in middle {
            guard case .scalar(let scalar) = token else { return nil }
            literal.unicodeScalars.append(scalar)
        }
        let bytes = Array(literal.utf8)
        switch (leading, trailing) {
        case (false, false): return .equal(bytes)
        case (false, true): return .prefix(bytes)
        case (true, false): return .suffix(bytes)
        case (true, true): return .contains(bytes)
        }
    }

    /// Whether `text` matches the whole pattern.
    ///
    /// - Complexity: O(n · m) at worst for n characters and m tokens (greedy runs with one backtrack point).
    func matches(_ text: String) -> Bool {
        if let shape {
            // Byte-wise on valid UTF-8 is code point by code point.
            var text = text
            return text.withUTF8 { bytes in
                switch shape {
                case .equal(let literal): return bytes.elementsEqual(literal)
                case .prefix(let literal): return bytes.starts(with: literal)
                case .suffix(let literal):
                    return bytes.count >= literal.count
                        && bytes[(bytes.count - literal.count)...].elementsEqual(literal)
                case .contains(let literal):
                    if literal.isEmpty { return true }
                    guard bytes.count >= literal.count else { return false }
                    for start in 0...(bytes.count - literal.count)
                    where bytes[start..<(start + literal.count)].elementsEqual(literal) {
                        return true
                    }
                    return false
                }
            }
        }
        let scalars = Array(text.unicodeScalars)
        var s = 0
        var t = 0
        var starToken = -1
        var starText = 0
        while s < scalars.count {
            if t < tokens.count {
                switch tokens[t] {
                case .run:
                    starToken = t
                    starText = s
                    t += 1
                    continue
                case .one:
                    s += 1
                    t += 1
                    continue
                case .scalar(let scalar) where scalar == scalars[s]:
                    s += 1
                    t += 1
                    continue
                case .scalar:
                    break
                }
            }
            guard starToken >= 0 else { return false }
            starText += 1
            s = starText
            t = starToken + 1
        }
        while t < tokens.count, tokens[t] == .run { t += 1 }
        return t == tokens.count
    }
}
