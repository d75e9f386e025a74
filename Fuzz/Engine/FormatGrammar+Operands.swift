import FetchKit

extension FormatGrammar {
    /// Reserved words, written with `#` (or without, which is an error) when used as keys.
    static let keywords = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "NULL", "NIL",
        "TRUE", "YES", "FALSE", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "SELF", "ANY", "SOME", "ALL", "NONE", "CAST",
        "SUBQUERY", "FIRST", "LAST", "SIZE"
    ]

    /// Names that no entity has.
    static let strangers = [
        "x", "_", "_private", "x1_Y", "a", "tags", "name2", "Title", "é", "a_very_long_name_of_a_key"
    ]

    /// A key path operand for `path`: its dotted form (components sometimes `#`-escaped, sometimes after `SELF.`),
    /// `.@count` at a to-many end, or a `%K` with the path as its argument.
    mutating func keyOperand(_ path: FuzzKeyPaths.Path) -> String {
        if chance(6) { return anyCase("SELF") }
        var components = path.components
        if chance(8) { components[random.int(0..<components.count)] = pick(Self.strangers) }
        if chance(3) { components.append(pick(Self.keywords)) }
        var suffix = ""
        if path.endsToMany ? chance(70) : chance(2) { suffix = "." + anyCase("@count") }
        if chance(10) {
            // %K (or %K.%K) with the path as its argument; a trailing @count may be inside the argument.
            if components.count > 1 && chance(30) {
                arguments.append(components[0])
                arguments.append(components.dropFirst().joined(separator: ".") + suffix)
                return "%K.%K"
            }
            arguments.append(components.joined(separator: ".") + suffix)
            return "%K"
        }
        let written = components.map { name in
            let reserved = Self.keywords.contains(name.uppercased())
            return (reserved ? chance(90) : chance(5)) ? "#" + name : name
        }
        return (chance(5) ? anyCase("SELF") + "." : "") + written.joined(separator: ".") + suffix
    }

    /// A right-hand operand: mostly a constant of `type` (or any type), else a specifier, a variable or a list.
    mutating func operand(type: AttributeType?) -> String {
        switch random.int(0..<20) {
        case 0, 1, 2: return specifier(type: type)
        case 3: return "$" + pick(["X", "value", "B", "in", "_1", "ŧ"])
        case 4: return listOperand(type: type)
        case 5: return anyCase("SELF")
        default: return literal(type: chance(70) ? type : nil)
        }
    }

    /// `{a, b, …}` (sometimes more than the 64 values a dialect binds inline), `%@` with an array, or a to-many
    /// key path.
    mutating func listOperand(type: AttributeType?) -> String {
        switch random.int(0..<10) {
        case 0, 1:
            arguments.append(arrayArgument(type: type))
            return "%@"
        case 2:
            return keyOperand(pick(keyPaths))
        default:
            let count = chance(5) ? random.int(60...80) : random.int(0...4)
            var items: [String] = []
            for _ in 0..<count { items.append(chance(4) ? operand(type: type) : literal(type: type)) }
            return "{" + items.joined(separator: "," + space()) + "}"
        }
    }

    /// The right side of `BETWEEN`: two bounds in braces or as an array argument, a variable, or a wrong count.
    mutating func betweenBounds(type: AttributeType?) -> String {
        switch random.int(0..<10) {
        case 0:
            arguments.append(arrayArgument(type: type, count: chance(80) ? 2 : random.int(0...3)))
            return "%@"
        case 1: return "$RANGE"
        case 2: return listOperand(type: type)
        default: return "{" + literal(type: type) + "," + space() + literal(type: type) + "}"
        }
    }

    /// A `%@`, `%K`, `%d`, `%f`, `%s` or `%c` (in one of its printf spellings) with an argument that fits
    /// nine times in ten.
    mutating func specifier(type: AttributeType?) -> String {
        let spelling = pick([
            "%@", "%@", "%@", "%d", "%i", "%ld", "%lld", "%u", "%x", "%f", "%lf", "%e", "%g", "%s", "%c"
        ])
        arguments.append(chance(90) ? argument(for: spelling, type: type) : valueArgument(type: nil))
        return spelling
    }
}
