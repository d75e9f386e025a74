/// Builds SQL `LIKE` patterns (escape character `\`) from FetchKit's string operators.
package enum LikePattern {
    /// `text` with the `LIKE` wildcards `%` and `_` and the escape `\` escaped, matching itself only.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "\\", "%", "_": result.unicodeScalars.append("\\")
            default: break
            }
            result.unicodeScalars.append(character)
        }
        return result
    }

    /// The pattern for `op` with a constant right side: `BEGINSWITH "a%"` → `a\%%`.
    package static func pattern(for op: FetchPredicate.Operator, _ text: String) -> String {
        switch op {
        case .beginsWith: return escaped(text) + "%"
        case .endsWith: return "%" + escaped(text)
        case .contains: return "%" + escaped(text) + "%"
        default: return translated(text)
        }
    }

    /// A Foundation `LIKE` pattern in SQL: `*` → `%`, `?` → `_`, a literal `%`, `_` or `\` escaped,
    /// and `\*`, `\?`, `\\` (Foundation's escapes) kept literal.
    package static func translated(_ pattern: String) -> String {
        var result = ""
        var escaping = false
        for character in pattern.unicodeScalars {
            if escaping {
                escaping = false
                result += escaped(String(character))
                continue
            }
            switch character {
            case "\\": escaping = true
            case "*": result += "%"
            case "?": result += "_"
            case "%", "_": result += "\\" + String(character)
            default: result.unicodeScalars.append(character)
            }
        }
        if escaping { result += "\\\\" }
        return result
    }
}
