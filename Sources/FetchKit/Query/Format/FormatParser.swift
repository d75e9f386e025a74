/// Parses an NSPredicate-style format string into a ``FetchPredicate``.
///
/// The predicate level (`AND`, `OR`, `NOT`, parentheses) is parsed with an explicit stack, so hostile
/// input such as 100,000 `(` cannot overflow the call stack. `AND` and `OR` are n-ary: a chain of any length
/// is one level of the tree (a list its walks iterate over). Everything else that deepens the tree counts
/// toward one limit, ``maximumDepth``: parentheses, `NOT`s, unary minuses, `SUBQUERY`s and each operator of
/// an arithmetic chain (`a + b + c` is `(a + b) + c`). It is checked as the input is read, before a deeper
/// tree exists, so that the recursive code that later walks the tree (equality, hashing, deallocation,
/// `predicateFormat`, substitution, validation, constant folding, the SQL compiler, the in-memory evaluator)
/// stays well within a 512 KB thread stack even in debug builds: at a depth of 1000, synthesized `==` alone
/// needs more than that. Lists cannot nest.
///
/// - Complexity: O(n) in the length of the format string.
struct FormatParser {
    /// How deeply parentheses, `NOT`s, unary minuses, `SUBQUERY`s and arithmetic operators may nest,
    /// counted together.
    static let maximumDepth = 100

    var lexer: FormatLexer
    /// The current token (one token of lookahead).
    var token: FormatToken
    let arguments: [any FormatArgument]
    /// The index of the next unused argument.
    var nextArgument = 0
    /// How deeply the current token is nested in parentheses, `NOT`s, unary minuses and `SUBQUERY`s.
    var nesting = 0
    /// The deepest level (nesting plus arithmetic depth) reached since the operand being read began: how
    /// deep a `SUBQUERY` operand's tree is.
    var deepestLevel = 0
    /// The error of a `(` read as the start of an operand, kept in case reading it as a group fails too.
    var deferredError: FetchKitError?

    init(format: String, arguments: [any FormatArgument]) throws(FetchKitError) {
        lexer = FormatLexer(format)
        self.arguments = arguments
        token = try lexer.next()
    }

    /// Parses the whole format string and checks that every argument was used.
    mutating func parse() throws(FetchKitError) -> FetchPredicate {
        if case .end = token.kind { throw FetchKitError.invalidPredicate("empty format string", offset: 0) }
        let predicate: FetchPredicate
        do {
            predicate = try parsePredicate()
        } catch {
            if let deferred = deferredError, let offset = deferred.predicateOffset,
                offset > (error.predicateOffset ?? Int.max)
            {
                throw deferred
            }
            throw error
        }
        guard nextArgument == arguments.count else {
            let given = arguments.count
            throw FetchKitError.invalidPredicate(
                "\(given) argument\(given == 1 ? "" : "s") given, \(nextArgument) used", offset: lexer.bytes.count)
        }
        return predicate
    }

    mutating func advance() throws(FetchKitError) {
        token = try lexer.next()
    }

    // MARK: - Predicate level

    /// One parenthesized group (or the whole string) being parsed.
    private struct Group {
        /// Alternatives already complete (joined by `OR`).
        var alternatives: [FetchPredicate] = []
        /// The conjuncts of the alternative being read (joined by `AND`).
        var conjuncts: [FetchPredicate] = []
        /// `NOT`s read before the next operand.
        var pendingNots = 0

        /// The alternative being read, as one predicate.
        private var currentAlternative: FetchPredicate {
            conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts)
        }

        mutating func closeAlternative() {
            alternatives.append(currentAlternative)
            conjuncts = []
        }

        /// The group's predicate once its last operand has been read.
        func finished() -> FetchPredicate {
            alternatives.isEmpty ? currentAlternative : .or(alternatives + [currentAlternative])
        }
    }

    /// Parses `OR` of `AND` of `NOT`* (parenthesized predicate | simple predicate), up to the end of input
    /// or, in a `SUBQUERY`, up to the `)` that closes it (not consumed).
    ///
    /// A `(` may open a group of predicates or an operand (`(age) > 3`, `(1 + 2) * 3 == 9`): the comparison
    /// reading is tried first and kept when it parses and is followed by what may follow a predicate.
    mutating func parsePredicate(closedByParenthesis: Bool = false) throws(FetchKitError) -> FetchPredicate {
        var groups = [Group()]
        while true {
            var operand: FetchPredicate
            if isOpenParen, let comparison = try parenthesizedComparison() {
                operand = comparison
            } else if token.kind.isNot || isOpenParen {
                try enterNesting()
                if isOpenParen { groups.append(Group()) } else { groups[groups.count - 1].pendingNots += 1 }
                try advance()
                continue
            } else {
                operand = try parseSimplePredicate()
            }
            while true {
                let top = groups.count - 1
                for _ in 0..<groups[top].pendingNots { operand = .not(operand) }
                nesting -= groups[top].pendingNots
                groups[top].pendingNots = 0
                groups[top].conjuncts.append(operand)
                if token.kind.isAnd {
                    try advance()
                    break
                }
                if token.kind.isOr {
                    groups[top].closeAlternative()
                    try advance()
                    break
                }
                switch token.kind {
                case .closeParen where top > 0:
                    operand = groups.removeLast().finished()
                    nesting -= 1
                    try advance()
                case .end where top == 0 && !closedByParenthesis, .closeParen where top == 0 && closedByParenthesis:
                    return groups[0].finished()
                case _ where top > 0:
                    throw FetchKitError.invalidPredicate("expected ')'", offset: token.start)
                default:
                    throw unexpected(token)
                }
            }
        }
    }

    /// The comparison that starts with the current `(` (`(age) > 3`), or `nil` when the parenthesis opens a
    /// group of predicates; the parser is left unchanged then.
    ///
    /// The comparison reading's error is kept in ``deferredError`` when it got further into the string: should
    /// the group reading fail too, ``parse()`` reports the error of the reading that understood more.
    private mutating func parenthesizedComparison() throws(FetchKitError) -> FetchPredicate? {
        var attempt = self
        do {
            let comparison = try attempt.parseComparison()
            switch attempt.token.kind {
            case _ where attempt.token.kind.isAnd || attempt.token.kind.isOr, .closeParen, .end:
                self = attempt
                return .comparison(comparison)
            default:
                return nil
            }
        } catch {
            if let offset = error.predicateOffset, offset > (deferredError?.predicateOffset ?? -1) {
                deferredError = error
            }
            return nil
        }
    }

    private var isOpenParen: Bool {
        if case .openParen = token.kind { return true }
        return false
    }

    /// `TRUEPREDICATE`, `FALSEPREDICATE` or a comparison.
    private mutating func parseSimplePredicate() throws(FetchKitError) -> FetchPredicate {
        switch token.kind {
        case .word(_, keyword: .truePredicate?):
            try advance()
            return .constant(true)
        case .word(_, keyword: .falsePredicate?):
            try advance()
            return .constant(false)
        default:
            return .comparison(try parseComparison())
        }
    }

    // MARK: - Errors

    /// "unexpected 'x'" for a token that cannot appear where it is; `operand` adds a hint for a reserved word
    /// where a key could have been meant.
    func unexpected(_ token: FormatToken, operand: Bool = false) -> FetchKitError {
        switch token.kind {
        case .end:
            return .invalidPredicate("unexpected end of input", offset: token.start)
        case .word(let name, keyword: .some) where operand:
            return .invalidPredicate(
                "unexpected '\(name)' (a reserved word; write #\(name) to use it as a key)", offset: token.start)
        default:
            let text = FormatBytes.excerpt(lexer.bytes[token.start..<token.end])
            return .invalidPredicate("unexpected '\(text)'", offset: token.start)
        }
    }

    /// Throws `expected 'x'` unless the current token is of `kind`, then moves past it.
    mutating func expect(_ description: String, _ matches: (FormatToken.Kind) -> Bool) throws(FetchKitError) {
        guard matches(token.kind) else {
            throw FetchKitError.invalidPredicate("expected \(description)", offset: token.start)
        }
        try advance()
    }
}

extension FetchKitError {
    /// The offset of an error the parser throws (``Code/invalidPredicate`` or ``Code/unsupported``).
    var predicateOffset: Int? {
        if code == .invalidPredicate || code == .unsupported { return self.offset }
        return nil
    }
}
