import Foundation

extension FetchPredicate: CustomStringConvertible {
    /// The predicate's format string; see ``predicateFormat``.
    public var description: String { predicateFormat }
}

extension FetchPredicate {
    /// The format-string form: parsing it gives back an equal predicate.
    ///
    /// ```swift
    /// let p = try FetchPredicate(format: "name beginswith[c] 'a' && !(todos.@count > 2)")
    /// p.predicateFormat   // name BEGINSWITH[c] "a" AND NOT todos.@count > 2
    /// ```
    ///
    /// Parentheses appear only where precedence needs them (`NOT` > `AND` > `OR`) or to keep a nested
    /// `AND` in an `AND` (or `OR` in an `OR`) apart.
    ///
    /// Strings are double-quoted and escaped, lists are in braces, reserved words used as keys get a `#`,
    /// dates are written `CAST(seconds since 2001, "NSDate")` as NSPredicate does, infinities
    /// `CAST("inf", "NSNumber")` and binary data `CAST("00ff", "NSData")`.
    /// An empty `AND` is written `TRUEPREDICATE`, an empty `OR` `FALSEPREDICATE` and a one-element `AND` or
    /// `OR` as its element: those parse back to their meaning rather than their shape. Keys whose components
    /// are not names (`[A-Za-z_][A-Za-z0-9_]*`), text containing NUL and trees nested deeper than the parser
    /// accepts (100 levels of parentheses and `NOT`) have no format-string form that parses back.
    public var predicateFormat: String {
        var text = ""
        render(into: &text)
        return text
    }

    private func render(into text: inout String) {
        switch node {
        case .constant(let value):
            text += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let predicates):
            Self.render(predicates, joinedBy: " AND ", ifEmpty: "TRUEPREDICATE", grouping: [.and, .or], into: &text)
        case .or(let predicates):
            Self.render(predicates, joinedBy: " OR ", ifEmpty: "FALSEPREDICATE", grouping: [.or], into: &text)
        case .not(let predicate):
            text += "NOT "
            predicate.render(groupedIf: [.and, .or], into: &text)
        case .comparison(let comparison):
            comparison.render(into: &text)
        }
    }

    /// The operator at the top of the rendered text, which decides where parentheses are needed.
    private enum RenderedJunction { case and, or, none }

    private var renderedJunction: RenderedJunction {
        switch node {
        case .and(let predicates) where predicates.count == 1, .or(let predicates) where predicates.count == 1:
            return predicates[0].renderedJunction
        case .and(let predicates): return predicates.isEmpty ? .none : .and
        case .or(let predicates): return predicates.isEmpty ? .none : .or
        case .constant, .not, .comparison: return .none
        }
    }

    private static func render(
        _ predicates: [FetchPredicate], joinedBy separator: String, ifEmpty: String,
        grouping: Set<RenderedJunction>, into text: inout String
    ) {
        guard predicates.count > 1 else {
            if let only = predicates.first { only.render(into: &text) } else { text += ifEmpty }
            return
        }
        for (index, predicate) in predicates.enumerated() {
            if index > 0 { text += separator }
            predicate.render(groupedIf: grouping, into: &text)
        }
    }

    /// Renders the predicate, in parentheses when its top operator is one of `junctions`.
    ///
    /// Parentheses go only where they are needed (an `OR` in an `AND`, an `AND` in an `AND`, any junction
    /// after `NOT`), so a parsed predicate's rendering never nests deeper than the text it came from.
    private func render(groupedIf junctions: Set<RenderedJunction>, into text: inout String) {
        guard junctions.contains(renderedJunction) else { return render(into: &text) }
        text += "("
        render(into: &text)
        text += ")"
    }
}

extension FetchPredicate.Comparison {
    fileprivate func render(into text: inout String) {
        switch quantifier {
        case .one: break
        case .any: text += "ANY "
        case .all: text += "ALL "
        case .none: text += "NONE "
        }
        lhs.render(into: &text)
        text += " " + op.rawValue
        if !options.isEmpty {
            text += "["
            if options.contains(.caseInsensitive) { text += "c" }
            if options.contains(.diacriticInsensitive) { text += "d" }
            text += "]"
        }
        text += " "
        rhs.render(into: &text)
    }
}

extension FetchPredicate.Operand {
    fileprivate func render(into text: inout String) {
        switch node {
        case .key(let key):
            key.render(into: &text)
        case .value(let value):
            value.renderFormatLiteral(into: &text)
        case .list(let values):
            text += "{"
            for (index, value) in values.enumerated() {
                if index > 0 { text += ", " }
                value.renderFormatLiteral(into: &text)
            }
            text += "}"
        case .count(let key):
            key.render(into: &text)
            text += ".@count"
        case .variable(let name, _):
            text += "$" + name
        case .object:
            text += "SELF"
        case .elements(let elements):
            text += "{"
            for (index, element) in elements.enumerated() {
                if index > 0 { text += ", " }
                element.render(into: &text)
            }
            text += "}"
        case .arithmetic(.value(.integer(0)), .subtract, let operand):
            text += "-"
            switch operand.node {
            // Grouped: `-5` would read back as the constant -5.
            case .value(.integer), .value(.double):
                text += "("
                operand.render(into: &text)
                text += ")"
            default:
                operand.render(groupedBelow: 3, into: &text)
            }
        case .arithmetic(let lhs, let op, let rhs):
            // Left-associative: a right operand of the same precedence needs parentheses (`a - (b - c)`).
            lhs.render(groupedBelow: op.precedence, into: &text)
            text += " " + op.rawValue + " "
            rhs.render(groupedBelow: op.precedence + 1, into: &text)
        case .aggregate(let function, let collection, let value):
            collection.render(into: &text)
            text += ".@" + function.rawValue + "."
            value.render(into: &text)
        case .subquery(let subquery):
            text += "SUBQUERY("
            subquery.collection.render(into: &text)
            text += ", $" + subquery.variable + ", " + subquery.predicate.predicateFormat + ").@count"
        }
    }

    /// How tightly the rendered operand binds: 1 for `+ -`, 2 for `* /`, 3 for anything else (unary minus,
    /// key paths, constants).
    private var renderedPrecedence: Int {
        switch node {
        case .arithmetic(.value(.integer(0)), .subtract, _): return 3
        case .arithmetic(_, let op, _): return op.precedence
        default: return 3
        }
    }

    /// Renders the operand, in parentheses when it binds less tightly than `precedence`.
    private func render(groupedBelow precedence: Int, into text: inout String) {
        let needsGroup = renderedPrecedence < precedence
        if needsGroup { text += "(" }
        render(into: &text)
        if needsGroup { text += ")" }
    }
}

extension FetchPredicate.Key {
    /// The dotted form with `#` before components that are reserved words.
    fileprivate func render(into text: inout String) {
        for (index, component) in components.enumerated() {
            if index > 0 { text += "." }
            if FormatKeyword(name: component) != nil { text += "#" }
            text += component
        }
    }
}

extension Value {
    /// The value as a format-string constant.
    fileprivate func renderFormatLiteral(into text: inout String) {
        switch self {
        case .null:
            text += "NULL"
        case .bool(let value):
            text += value ? "TRUE" : "FALSE"
        case .integer(let value):
            text += String(value)
        case .double(let value) where value.isFinite:
            text += String(value)
        case .double(let value):
            text += "CAST(\"\(value)\", \"NSNumber\")"
        case .text(let value):
            Self.renderQuoted(value, into: &text)
        case .date(let date):
            text += "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .blob(let data):
            text += "CAST(\"\(FormatBytes.hexadecimal(data))\", \"NSData\")"
        }
    }

    /// `"..."` with `"`, `\` and control characters escaped.
    private static func renderQuoted(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
