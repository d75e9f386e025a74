extension FormatParser {
    // MARK: - Arithmetic

    /// An operand with `+`, `-`, `*`, `/`, unary minus and parentheses: `price * quantity`, `-(a + 1)`.
    ///
    /// `*` and `/` bind tighter than `+` and `-`; operators of one precedence group to the left. Parentheses
    /// count towards ``maximumDepth`` like those of predicates, and so does each operator of a chain: the tree
    /// of `a + b + c` is `(a + b) + c`, one level deeper per operator. The limit is checked as the chain is
    /// read, so a chain too long for it is refused before a deep tree exists.
    mutating func parseExpression() throws(FetchKitError) -> FetchPredicate.Operand {
        try parseOperations(binding: 1).operand
    }

    /// Operands joined by the operators of `precedence` (1: `+ -`, 2: `* /`), each operand binding tighter,
    /// with the depth of the tree they make (0 for a lone operand without arithmetic).
    private mutating func parseOperations(
        binding precedence: Int
    ) throws(FetchKitError) -> (operand: FetchPredicate.Operand, depth: Int) {
        var (lhs, depth) = precedence == 1 ? try parseOperations(binding: 2) : try parseUnary()
        while case .arithmetic(let op) = token.kind, op.precedence == precedence {
            let at = token.start
            try advance()
            let (rhs, rhsDepth) = precedence == 1 ? try parseOperations(binding: 2) : try parseUnary()
            depth = max(depth, rhsDepth) + 1
            try reach(depth, at: at)
            lhs = .arithmetic(lhs, op, rhs)
        }
        return (lhs, depth)
    }

    /// `-x` (as `0 - x`), `(expression)` or an operand, with the depth of its tree.
    private mutating func parseUnary() throws(FetchKitError) -> (operand: FetchPredicate.Operand, depth: Int) {
        switch token.kind {
        case .arithmetic(.subtract):
            try enterNesting()
            try advance()
            let (operand, depth) = try parseUnary()
            nesting -= 1
            return (.arithmetic(.value(.integer(0)), .subtract, operand), depth + 1)
        case .openParen:
            try enterNesting()
            try advance()
            let inner = try parseOperations(binding: 1)
            try expect("')'") { if case .closeParen = $0 { true } else { false } }
            nesting -= 1
            return inner
        default:
            // A SUBQUERY's predicate makes the operand as deep as the levels reached inside it.
            let outer = deepestLevel
            deepestLevel = nesting
            let operand = try parseOperand()
            let depth = deepestLevel - nesting
            deepestLevel = max(outer, deepestLevel)
            return (operand, depth)
        }
    }

    /// Counts one more level of nesting, failing past ``maximumDepth``.
    mutating func enterNesting() throws(FetchKitError) {
        nesting += 1
        guard nesting <= Self.maximumDepth else {
            throw FetchKitError.invalidPredicate("nesting deeper than \(Self.maximumDepth)", offset: token.start)
        }
        deepestLevel = max(deepestLevel, nesting)
    }

    /// Records an arithmetic tree `depth` levels deep at the current nesting, failing when the two together
    /// pass ``maximumDepth``; `offset` is the operator's.
    private mutating func reach(_ depth: Int, at offset: Int) throws(FetchKitError) {
        let level = nesting + depth
        guard level <= Self.maximumDepth else {
            throw FetchKitError.invalidPredicate(
                "nesting deeper than \(Self.maximumDepth) (each arithmetic operator of a chain counts one level)",
                offset: offset)
        }
        deepestLevel = max(deepestLevel, level)
    }

    // MARK: - Key paths

    /// A key path that starts at the current token, a name or `%K` (after `SELF.` or `@sum.`), or with
    /// `fromVariable` also a subquery variable (`$t.category.todos`).
    mutating func parseKeyPathStart(
        after what: String, fromVariable: Bool = false
    ) throws(FetchKitError) -> FetchPredicate.Operand {
        let start = token.start
        switch token.kind {
        case .word(let name, _):
            try advance()
            return try parseKeyPath([name], start: start)
        case .argument(.key):
            try advance()
            let operand = try substitute(.key, at: start)
            guard case .key(let key) = operand.node, case .dot = token.kind else { return operand }
            return try parseKeyPath(key.components, start: start)
        case .variable(let name) where fromVariable:
            // `SUBQUERY($t.category.todos, …)`: a nested subquery's collection from an outer variable.
            try advance()
            return try parseKeyPath(["$" + name], start: start)
        default:
            throw FetchKitError.invalidPredicate("expected a key after \(what)", offset: token.start)
        }
    }

    // MARK: - Aggregates

    /// The collection operator `@name` names: `nil` for `@count`, else `@sum`, `@avg`, `@min` or `@max`.
    static func aggregateFunction(
        _ name: String, at offset: Int
    ) throws(FetchKitError) -> FetchPredicate.AggregateFunction? {
        let lowered = name.lowercased()
        if lowered == "count" { return nil }
        guard let function = FetchPredicate.AggregateFunction(rawValue: lowered) else {
            throw FetchKitError.unsupported(
                "the collection operator '@\(name)'", detail: "FetchKit has @count, @sum, @avg, @min and @max",
                offset: offset)
        }
        return function
    }

    /// `@avg.todos.priority`: an aggregate written before its key path, which is split before its last key.
    mutating func parsePrefixAggregate(_ name: String, start: Int) throws(FetchKitError) -> FetchPredicate.Operand {
        try advance()
        guard let function = try Self.aggregateFunction(name, at: start) else {
            throw FetchKitError.invalidPredicate("@count needs a key path before it, as in todos.@count", offset: start)
        }
        try expect("'.' after @\(name)") { if case .dot = $0 { true } else { false } }
        let pathStart = token.start
        guard case .key(let path) = try parseKeyPathStart(after: "'@\(name).'").node, path.components.count >= 2 else {
            throw FetchKitError.invalidPredicate(
                "@\(name) needs a to-many key path and a key, as in @\(name).todos.estimate", offset: pathStart)
        }
        let collection = FetchPredicate.Key(components: Array(path.components.dropLast()), offset: path.offset)
        let value = FetchPredicate.Key(components: [path.components[path.components.count - 1]], offset: path.offset)
        return .aggregate(function, collection: collection, value: value)
    }

    // MARK: - SUBQUERY

    /// `SUBQUERY(collection, $variable, predicate).@count`.
    mutating func parseSubquery() throws(FetchKitError) -> FetchPredicate.Operand {
        try advance()
        try expect("'(' after SUBQUERY") { if case .openParen = $0 { true } else { false } }
        try enterNesting()
        let collectionStart = token.start
        guard case .key(let collection) = try parseKeyPathStart(after: "'SUBQUERY('", fromVariable: true).node
        else {
            throw FetchKitError.invalidPredicate("SUBQUERY needs a to-many key path first", offset: collectionStart)
        }
        try expect("','") { if case .comma = $0 { true } else { false } }
        guard case .variable(let variable) = token.kind else {
            throw FetchKitError.invalidPredicate("SUBQUERY needs a variable such as $x second", offset: token.start)
        }
        try advance()
        try expect("','") { if case .comma = $0 { true } else { false } }
        let predicate = try parsePredicate(closedByParenthesis: true)
        try expect("')'") { if case .closeParen = $0 { true } else { false } }
        nesting -= 1
        guard case .dot = token.kind else { throw Self.subqueryNeedsCount(at: token.start) }
        try advance()
        guard case .aggregate(let name) = token.kind, name.lowercased() == "count" else {
            throw Self.subqueryNeedsCount(at: token.start)
        }
        try advance()
        return .subquery(FetchPredicate.Subquery(collection: collection, variable: variable, predicate: predicate))
    }

    private static func subqueryNeedsCount(at offset: Int) -> FetchKitError {
        .unsupported(
            "a SUBQUERY not followed by .@count", detail: "FetchKit compiles SUBQUERY as a count", offset: offset)
    }
}
