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
    }

    /// Whether `text` matches the whole pattern.
    ///
    /// - Complexity: O(n · m) at worst for n characters and m tokens (greedy runs with one backtrack point).
    func matches(_ text: String) -> Bool {
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
