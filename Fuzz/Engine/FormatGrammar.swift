import FetchKit
import FetchKitFixtures
import FetchKitTesting

/// Writes random format strings from the grammar of FetchKit's and Foundation's predicate language, with the
/// arguments their specifiers consume: comparisons with every operator spelling and option, quantifiers, key
/// paths of the fixture schema and made-up names, literals of every kind, specifiers, `$VARIABLE`s, lists,
/// `CAST`, `SUBQUERY`, aggregates, arithmetic, parentheses and `NOT` / `AND` / `OR` nesting.
///
/// Most strings are valid; the rest are near misses (a wrong argument, an unknown option, a list where a
/// value goes), which is where parsers break.
struct FormatGrammar {
    var random: SeededRandom
    let keyPaths: [FuzzKeyPaths.Path]
    /// The arguments consumed so far, in specifier order.
    var arguments: [any FormatArgument] = []

    init(random: SeededRandom, keyPaths: [FuzzKeyPaths.Path]) {
        self.random = random
        self.keyPaths = keyPaths
    }

    mutating func chance(_ percent: Int) -> Bool { random.int(0..<100) < percent }

    mutating func pick<T>(_ values: [T]) -> T { values[random.int(0..<values.count)] }

    /// `word` in upper, lower or mixed case (keywords are case-insensitive).
    mutating func anyCase(_ word: String) -> String {
        switch random.int(0..<6) {
        case 0: return word.lowercased()
        case 1: return String(word.map { chance(50) ? Character($0.lowercased()) : $0 })
        default: return word
        }
    }

    /// Whitespace between tokens: usually one space, sometimes none or several.
    mutating func space() -> String {
        switch random.int(0..<40) {
        case 0: return ""
        case 1: return "  "
        case 2: return "\t"
        case 3: return "\n "
        default: return " "
        }
    }

    // MARK: - Predicates

    /// A whole predicate, nested up to `depth` levels.
    mutating func predicate(depth: Int = 4) -> String {
        guard depth > 0, !chance(40) else { return simplePredicate() }
        switch random.int(0..<10) {
        case 0: return anyCase(pick(["NOT", "NOT", "!"])) + space() + predicate(depth: depth - 1)
        case 1: return "(" + space() + predicate(depth: depth - 1) + space() + ")"
        case 2: return anyCase("NOT") + space() + "(" + predicate(depth: depth - 1) + ")"
        default:
            var text = predicate(depth: depth - 1)
            for _ in 0..<random.int(1...3) {
                let junction = anyCase(pick(["AND", "OR", "&&", "||", "AND", "OR"]))
                text += space() + junction + space() + predicate(depth: depth - 1)
            }
            return text
        }
    }

    mutating func simplePredicate() -> String {
        switch random.int(0..<40) {
        case 0: return anyCase("TRUEPREDICATE")
        case 1: return anyCase("FALSEPREDICATE")
        case 2, 3, 4, 5: return extendedComparison()
        default: return comparison()
        }
    }

    /// `[quantifier] lhs op[options] rhs`, typed against the schema most of the time.
    mutating func comparison() -> String {
        let path = pick(keyPaths)
        let op = comparisonOperator()
        var text = ""
        if path.crossesToMany ? chance(85) : chance(4) {
            text += anyCase(pick(["ANY", "SOME", "ALL", "NONE"])) + " "
        }
        let lhs = chance(85) ? keyOperand(path) : operand(type: path.type)
        var rhs: String
        switch op.uppercased() {
        case "IN": rhs = chance(80) ? listOperand(type: path.type) : operand(type: path.type)
        case "BETWEEN": rhs = betweenBounds(type: path.type)
        default: rhs = chance(10) ? keyOperand(pick(keyPaths)) : operand(type: path.type)
        }
        if chance(8) { swap(&text, &rhs) }  // a quantifier (or nothing) on the right: mostly an error
        return text + lhs + space() + op + options() + space() + rhs
    }

    mutating func comparisonOperator() -> String {
        let op = pick([
            "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH",
            "CONTAINS", "LIKE", "MATCHES", "==", "IN", "CONTAINS"
        ])
        return op.first?.isLetter == true ? anyCase(op) : op
    }

    /// `[c]`, `[d]`, `[cd]` and the accepted `[n]`, `[l]`; now and then an unknown letter or stray spaces.
    mutating func options() -> String {
        guard chance(25) else { return "" }
        var letters = ""
        for letter in ["c", "d", "n", "l"] where chance(45) { letters += chance(80) ? letter : letter.uppercased() }
        if letters.isEmpty || chance(3) { letters += pick(["c", "x", "", "cdx", "1"]) }
        return chance(90) ? "[" + letters + "]" : "[ " + letters + " ]"
    }
}
