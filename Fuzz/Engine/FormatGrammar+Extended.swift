import FetchKit

extension FormatGrammar {
    /// The rest of Foundation's grammar: `SUBQUERY`, aggregates, arithmetic and unary minus, parenthesised
    /// operands, lists of key paths and variables, a constant on the left, and the constructs FetchKit reports
    /// as unsupported (indexes, functions, custom selectors, UTI operators, bitwise operators).
    mutating func extendedComparison() -> String {
        let path = pick(keyPaths)
        let key = keyOperand(path)
        switch random.int(0..<14) {
        case 0: return subquery() + space() + pick([">", "==", "<="]) + space() + String(random.int(0...3))
        case 1: return aggregate() + space() + pick([">", "==", "<", "!="]) + space() + arithmetic(depth: 1)
        case 2: return arithmetic(depth: 2) + space() + pick([">", "==", "<=", "!="]) + space() + arithmetic(depth: 2)
        case 3: return "(" + key + ")" + space() + comparisonOperator() + space() + operand(type: path.type)
        case 4:
            arguments.append(path.components.joined(separator: "."))
            arguments.append(arrayArgument(type: path.type))
            return "%K " + anyCase("IN") + " (%@)"
        case 5:
            let bound = { (grammar: inout FormatGrammar) -> String in
                grammar.chance(50)
                    ? grammar.keyOperand(grammar.pick(grammar.keyPaths)) : "$" + grammar.pick(["lo", "hi", "B"])
            }
            return key + " " + anyCase("BETWEEN") + " {" + bound(&self) + ", " + bound(&self) + "}"
        case 6: return "$A " + anyCase("IN") + " {$B, $C" + (chance(50) ? ", " + literal(type: nil) : "") + "}"
        case 7:
            arguments.append(valueArgument(type: path.type))
            return "%@ " + anyCase("IN") + " " + key
        case 8:
            return stringLiteral() + " " + anyCase(pick(["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"])) + options()
                + " " + key
        case 9: return "-" + key + space() + pick(["<", "=="]) + space() + "-" + String(random.int(0...9))
        case 10: return key + pick(["[FIRST]", "[LAST]", "[SIZE]", "[0]", "['k']"]) + " == 1"
        case 11: return pick(["now()", "lowercase(title)", "FUNCTION(title, 'x')", "sum:(todos)"]) + " == 1"
        case 12:
            return key + pick([" isKindOfClass: %@", " UTI-CONFORMS-TO 'x'", " UTI-EQUALS 'x'"])
                + (chance(50) ? "" : " == 1")
        default: return key + space() + pick(["&", "|", "^", "~", "<<", ">>"]) + space() + "1 == 0"
        }
    }

    /// `SUBQUERY(collection, $v, predicate over $v).@count`.
    mutating func subquery() -> String {
        let collection = chance(80) ? pick(["todos", "category.todos", "tags", "SELF"]) : keyOperand(pick(keyPaths))
        let variable = pick(["t", "x", "todo", "SELF", ""])
        let field = pick(["priority", "title", "done", "category.name", "todos.@count", "x"])
        var inner = "$" + variable + "." + field + space() + comparisonOperator() + space() + literal(type: nil)
        if chance(30) { inner = "(" + inner + " " + anyCase(pick(["AND", "OR"])) + " " + simplePredicate() + ")" }
        return anyCase("SUBQUERY") + "(" + collection + "," + space() + "$" + variable + "," + space() + inner + ")"
            + (chance(90) ? "." + anyCase("@count") : "")
    }

    /// `todos.@sum.estimate`, `@avg.todos.priority`, `@min` / `@max`, and names no one knows.
    mutating func aggregate() -> String {
        let name = anyCase(pick(["@sum", "@avg", "@min", "@max", "@count", "@distinctUnionOfObjects", "@"]))
        let collection = pick(["todos", "category.todos", "tags", "x"])
        let field = pick(["priority", "ordering", "estimate", "title", "due"])
        return chance(50) ? collection + "." + name + "." + field : name + "." + collection + "." + field
    }

    /// `price * quantity`, `(1 + 2) * 3`, `-x`, `2 ** 3`, with numbers, keys and specifiers.
    mutating func arithmetic(depth: Int) -> String {
        guard depth > 0, chance(70) else {
            switch random.int(0..<5) {
            case 0: return keyOperand(pick(keyPaths))
            case 1: return specifier(type: .integer)
            case 2: return "-" + pick(["priority", "(1)", "ordering", "$X"])
            default: return numberLiteral()
            }
        }
        let op = pick(["+", "-", "*", "/", "**", "+", "*"])
        let text = arithmetic(depth: depth - 1) + space() + op + space() + arithmetic(depth: depth - 1)
        return chance(40) ? "(" + text + ")" : text
    }
}
