extension FormatParser {
    /// `[ANY|SOME|ALL|NONE] operand operator[options] operand`
    mutating func parseComparison() throws(FetchKitError) -> FetchPredicate.Comparison {
        let quantifier = try parseQuantifier()
        let lhs = try parseExpression()
        let op = try parseOperator()
        let options = try parseOptions()
        let rhs = op == .between ? try parseBetweenBounds() : try parseExpression()
        return FetchPredicate.Comparison(lhs, op, rhs, options: options, quantifier: quantifier)
    }

    private mutating func parseQuantifier() throws(FetchKitError) -> FetchPredicate.Quantifier {
        let quantifier: FetchPredicate.Quantifier
        switch token.kind {
        case .word(_, keyword: .any?), .word(_, keyword: .some?): quantifier = .any
        case .word(_, keyword: .all?): quantifier = .all
        case .word(_, keyword: .none?): quantifier = .none
        default: return .one
        }
        try advance()
        return quantifier
    }

    private mutating func parseOperator() throws(FetchKitError) -> FetchPredicate.Operator {
        let op: FetchPredicate.Operator
        switch token.kind {
        case .comparison(let symbol): op = symbol
        case .word(_, keyword: let keyword?) where keyword.comparisonOperator != nil:
            op = keyword.comparisonOperator ?? .equal
        case .word(let name, keyword: nil):
            throw unsupportedOperator(name)
        case .openBracket:
            throw FetchKitError.unsupported(
                "an index such as [FIRST], [LAST], [SIZE], [0] or ['key'] after a key path", offset: token.start)
        default:
            throw FetchKitError.invalidPredicate("expected a comparison operator", offset: token.start)
        }
        try advance()
        return op
    }

    /// The error for a word where an operator should be: a custom selector (`x isKindOfClass: %@`) or
    /// `UTI-CONFORMS-TO` / `UTI-EQUALS`, which Foundation's grammar has and FetchKit does not compile.
    private func unsupportedOperator(_ name: String) -> FetchKitError {
        let after = token.end < lexer.bytes.count ? lexer.bytes[token.end] : 0
        if after == UInt8(ascii: ":") {
            return .unsupported("the custom selector '\(name):'", offset: token.start)
        }
        if name.uppercased() == "UTI" && after == UInt8(ascii: "-") {
            return .unsupported("UTI-CONFORMS-TO and UTI-EQUALS", offset: token.start)
        }
        return .invalidPredicate("expected a comparison operator", offset: token.start)
    }

    /// `[c]`, `[d]`, `[cd]`, also with `n` and `l` (in any order and case), after an operator.
    private mutating func parseOptions() throws(FetchKitError) -> FetchPredicate.StringOptions {
        guard case .openBracket = token.kind else { return [] }
        try advance()
        guard case .word(let letters, _) = token.kind else {
            throw FetchKitError.invalidPredicate("expected options such as c, d or cd", offset: token.start)
        }
        var options: FetchPredicate.StringOptions = []
        for (index, letter) in letters.utf8.enumerated() {
            switch letter {
            case UInt8(ascii: "c"), UInt8(ascii: "C"): options.insert(.caseInsensitive)
            case UInt8(ascii: "d"), UInt8(ascii: "D"): options.insert(.diacriticInsensitive)
            // `[n]` (the operands are already normalized) changes nothing: FetchKit compares text by code point
            // after the folds `[c]` and `[d]` ask for. `[l]` (locale-aware) is accepted and also changes
            // nothing: comparisons never depend on a locale, so every backend and the in-memory evaluator agree.
            case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "l"), UInt8(ascii: "L"): break
            default:
                let character = FormatBytes.describeCharacter(in: lexer.bytes, at: token.start + index)
                throw FetchKitError.invalidPredicate(
                    "unknown option \(character) (expected c, d, n or l)", offset: token.start + index)
            }
        }
        try advance()
        try expect("']'") { if case .closeBracket = $0 { true } else { false } }
        return options
    }

    /// The right side of `BETWEEN`: a two-element list literal, a two-element list argument or a `$VARIABLE`.
    private mutating func parseBetweenBounds() throws(FetchKitError) -> FetchPredicate.Operand {
        let start = token.start
        let bounds = try parseExpression()
        switch bounds.node {
        case .variable:
            return bounds
        case .list(let values) where values.count == 2:
            return bounds
        case .elements(let elements) where elements.count == 2:
            return bounds
        case .list(let values):
            throw FetchKitError.invalidPredicate("BETWEEN needs two values, got \(values.count)", offset: start)
        case .elements(let elements):
            throw FetchKitError.invalidPredicate("BETWEEN needs two values, got \(elements.count)", offset: start)
        default:
            throw FetchKitError.invalidPredicate("BETWEEN needs a list of two values, such as {1, 5}", offset: start)
        }
    }

    // MARK: - Operands

    /// A key path, `key.@count`, `SELF`, a literal, a list, a `CAST`, a `$VARIABLE` or a substitution.
    mutating func parseOperand() throws(FetchKitError) -> FetchPredicate.Operand {
        let current = token
        switch current.kind {
        case .word(let name, keyword: nil):
            try advance()
            return try parseKeyPath([name], start: current.start)
        case .word(_, keyword: .self?):
            try advance()
            guard case .dot = token.kind else { return .object }
            try advance()
            return try parseKeyPathStart(after: "'SELF.'")
        case .word(_, keyword: .null?), .word(_, keyword: .nil?):
            try advance()
            return .value(.null)
        case .word(_, keyword: .true?), .word(_, keyword: .yes?):
            try advance()
            return .value(.bool(true))
        case .word(_, keyword: .false?), .word(_, keyword: .no?):
            try advance()
            return .value(.bool(false))
        case .word(_, keyword: .cast?):
            return .value(try parseCast())
        case .integer(let value):
            try advance()
            return .value(.integer(value))
        case .double(let value):
            try advance()
            return .value(.double(value))
        case .string(let value):
            try advance()
            return .value(.text(value))
        case .variable(let name):
            try advance()
            // `$t.priority`: a key path from a SUBQUERY's variable.
            guard case .dot = token.kind else { return .variable(name, offset: current.start) }
            return try parseKeyPath(["$" + name], start: current.start)
        case .word(_, keyword: .subquery?):
            return try parseSubquery()
        case .argument(let specifier):
            try advance()
            let operand = try substitute(specifier, at: current.start)
            guard case .key(let key) = operand.node, case .dot = token.kind else { return operand }
            return try parseKeyPath(key.components, start: current.start)
        case .openBrace:
            return try parseList()
        case .aggregate(let name):
            return try parsePrefixAggregate(name, start: current.start)
        default:
            throw unexpected(current, operand: true)
        }
    }

    /// The rest of a key path whose first components have been read: `.name` or `.%K`*, then an optional
    /// `.@count`.
    mutating func parseKeyPath(
        _ components: [String], start: Int
    ) throws(FetchKitError) -> FetchPredicate.Operand {
        var components = components
        while case .dot = token.kind {
            try advance()
            switch token.kind {
            case .word(let name, _):
                components.append(name)
                try advance()
            case .argument(.key):
                // `%K` as a later component (`ANY moods.%K`, `%K.%K`): its key path continues this one.
                let at = token.start
                try advance()
                switch try substitute(.key, at: at).node {
                case .key(let key):
                    components += key.components
                case .count(let key):
                    return .count(FetchPredicate.Key(components: components + key.components, offset: start))
                case .aggregate(let function, let collection, let value):
                    let prefixed = FetchPredicate.Key(components: components + collection.components, offset: start)
                    return .aggregate(function, collection: prefixed, value: value)
                default:
                    throw FetchKitError.invalidPredicate("expected a key after '.'", offset: at)
                }
            case .aggregate(let name):
                let at = token.start
                try advance()
                let collection = FetchPredicate.Key(components: components, offset: start)
                guard let function = try Self.aggregateFunction(name, at: at) else { return .count(collection) }
                guard case .dot = token.kind else {
                    throw FetchKitError.invalidPredicate(
                        "@\(name) needs a key after it, as in \(collection).@\(name).estimate", offset: at)
                }
                try advance()
                let valueStart = token.start
                guard case .key(let value) = try parseKeyPathStart(after: "'@\(name).'").node else {
                    throw FetchKitError.invalidPredicate("@\(name) needs a key after it", offset: valueStart)
                }
                return .aggregate(function, collection: collection, value: value)
            default:
                throw FetchKitError.invalidPredicate("expected a key after '.'", offset: token.start)
            }
        }
        if components.count == 1, case .openParen = token.kind {
            throw FetchKitError.unsupported(
                "the function call \(components[0])(…)", detail: "FetchKit compiles no FUNCTION, TERNARY or other call",
                offset: start)
        }
        return .key(FetchPredicate.Key(components: components, offset: start))
    }

    /// `{element, ...}`: a ``FetchPredicate/Operand/list(_:)`` when every element is a constant, else
    /// ``FetchPredicate/Operand/elements(_:)`` (key paths, variables, expressions).
    private mutating func parseList() throws(FetchKitError) -> FetchPredicate.Operand {
        try advance()
        var elements: [FetchPredicate.Operand] = []
        if case .closeBrace = token.kind {
            try advance()
            return .list([])
        }
        while true {
            let start = token.start
            if case .openBrace = token.kind {
                throw FetchKitError.invalidPredicate("a list cannot contain a list", offset: start)
            }
            let element = try parseExpression()
            switch element.node {
            case .list, .elements:
                throw FetchKitError.invalidPredicate("a list cannot contain a list", offset: start)
            default:
                elements.append(element)
            }
            switch token.kind {
            case .comma:
                try advance()
            case .closeBrace:
                try advance()
                return FetchPredicate.Operand.collapsing(elements)
            default:
                throw FetchKitError.invalidPredicate("expected ',' or '}'", offset: token.start)
            }
        }
    }
}

extension FetchPredicate.Operand {
    /// `.list` of the elements' values when they are all constants, else `.elements`.
    static func collapsing(_ elements: [FetchPredicate.Operand]) -> FetchPredicate.Operand {
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard case .value(let value) = element.node else { return .elements(elements) }
            values.append(value)
        }
        return .list(values)
    }
}
