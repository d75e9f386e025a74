/// A validated predicate compiled for rows in memory, answering exactly what the store's SQL answers for
/// the same row: the change router decides a live controller's membership with it instead of a query.
///
/// It reproduces the compiled SQL's semantics, not Swift's: comparisons with `NULL` are unknown (false in
/// the end, true under `NOT`), `==` / `!=` against `nil` are `IS NULL` / `IS NOT NULL`, `!=` against a value
/// is null-safe, text compares by UTF-8 bytes (NFC and NFD forms differ, as in the database), `-0.0`
/// equals `0`, integers compare with doubles as the dialect does, `[c]` / `[d]` fold as the dialect's fold
/// functions do, and `LIKE` / `BEGINSWITH` / `ENDSWITH` / `CONTAINS` match code points with `*`/`?` (`%`/`_`
/// in SQL) as wildcards and escapes as written, an empty needle of `BEGINSWITH` / `ENDSWITH` / `CONTAINS`
/// matching nothing (NSPredicate's rule).
///
/// Not every predicate can be reproduced: `ANY` / `ALL` / `NONE`, `@count`, aggregates and `SUBQUERY` across
/// to-many relationships, arithmetic, a constant on the left of a string operator, `MATCHES`, and folds the
/// dialect does not perform as FetchKit does in memory (``SQLDialect/caseFoldMatchesMemory``,
/// ``SQLDialect/diacriticFoldMatchesMemory``). For those the initializer returns `nil` and the controller
/// keeps asking the database.
public struct InMemoryPredicate: Sendable {
    /// One node of the compiled tree.
    indirect enum Node: Sendable {
        case constant(Bool)
        case and([Node])
        case or([Node])
        case not(Node)
        case test(Test)
    }

    /// The compiled tree.
    let root: Node
    /// The key paths (row columns) it reads; the primary key's name for `SELF`.
    public let columns: Set<String>

    /// Compiles `predicate` (validated for `entity`), or returns `nil` when it cannot be evaluated in memory
    /// exactly as `dialect`'s SQL evaluates it.
    public init?(_ predicate: FetchPredicate, entity: Entity, schema: Schema, dialect: SQLDialect) {
        var columns: Set<String> = []
        let compiler = Compiler(entity: entity, schema: schema, dialect: dialect)
        guard let root = compiler.node(predicate, columns: &columns) else { return nil }
        self.root = root
        self.columns = columns.interned()
    }

    /// Whether `row` (holding every column of ``columns`` by its key path) matches.
    public func matches(_ row: Row) -> Bool {
        Self.evaluate(root, row) ?? false
    }

    /// Three-valued evaluation: `nil` is SQL's unknown.
    private static func evaluate(_ node: Node, _ row: Row) -> Bool? {
        switch node {
        case .constant(let value):
            return value
        case .and(let nodes):
            var result: Bool? = true
            for node in nodes {
                switch evaluate(node, row) {
                case false?: return false
                case nil: result = nil
                case true?: break
                }
            }
            return result
        case .or(let nodes):
            var result: Bool? = false
            for node in nodes {
                switch evaluate(node, row) {
                case true?: return true
                case nil: result = nil
                case false?: break
                }
            }
            return result
        case .not(let node):
            // The compiler writes `NOT COALESCE(x, FALSE)`: unknown negates to true.
            return !(evaluate(node, row) ?? false)
        case .test(let test):
            return test.evaluate(row)
        }
    }
}

extension InMemoryPredicate {
    /// Builds the tree, collecting the columns it reads.
    private struct Compiler {
        let entity: Entity
        let schema: Schema
        let dialect: SQLDialect

        func node(_ predicate: FetchPredicate, columns: inout Set<String>) -> Node? {
            switch predicate.node {
            case .constant(let value):
                return .constant(value)
            case .and(let parts):
                var nodes: [Node] = []
                for part in parts {
                    guard let node = node(part, columns: &columns) else { return nil }
                    nodes.append(node)
                }
                return nodes.count == 1 ? nodes[0] : .and(nodes)
            case .or(let parts):
                var nodes: [Node] = []
                for part in parts {
                    guard let node = node(part, columns: &columns) else { return nil }
                    nodes.append(node)
                }
                return nodes.count == 1 ? nodes[0] : .or(nodes)
            case .not(let inner):
                return node(inner, columns: &columns).map(Node.not)
            case .comparison(let comparison):
                return test(comparison, columns: &columns).map(Node.test)
            }
        }

        /// A scalar operand as a column of the row and its type, or `nil` (to-many paths, `@count`).
        private func column(_ operand: FetchPredicate.Operand) -> (name: String, type: AttributeType)? {
            switch operand.node {
            case .key(let key):
                guard let path = try? schema.resolve(key, from: entity), !path.crossesToMany else { return nil }
                return (key.description, path.attribute.type)
            case .object:
                return (entity.primaryKey.name, entity.primaryKey.type)
            case .count, .value, .list, .variable, .elements, .arithmetic, .aggregate, .subquery:
                return nil
            }
        }

        private func test(_ comparison: FetchPredicate.Comparison, columns: inout Set<String>) -> Test? {
            guard comparison.quantifier == .one, let (left, type) = column(comparison.lhs) else { return nil }
            let options = comparison.options
            if options.contains(.caseInsensitive) && !dialect.caseFoldMatchesMemory { return nil }
            if options.contains(.diacriticInsensitive) && !dialect.diacriticFoldMatchesMemory { return nil }
            let fold = TextFold(options)
            let right: Test.Right
            switch (comparison.op, comparison.rhs.node) {
            case (.matches, _):
                return nil
            case (.in, .list(let values)):
                let present = values.filter { !$0.isNull }
                right = .list(present.map { fold.apply($0) }, includesNull: present.count < values.count)
            case (.between, .list(let bounds)) where bounds.count == 2:
                right = .range(fold.apply(bounds[0]), fold.apply(bounds[1]))
            case (.beginsWith, .value(.null)), (.endsWith, .value(.null)), (.contains, .value(.null)),
                (.like, .value(.null)), (.beginsWith, .value(.text(""))), (.endsWith, .value(.text(""))),
                (.contains, .value(.text(""))):
                // Against nil, and NSPredicate's empty needle: the compiler writes a constant false.
                return Test(column: left, type: type, op: comparison.op, right: .never, fold: fold, dialect: dialect)
            case (.beginsWith, .value(.text(let text))), (.endsWith, .value(.text(let text))),
                (.contains, .value(.text(let text))), (.like, .value(.text(let text))):
                let pattern = LikePattern.pattern(for: comparison.op, text)
                right = .pattern(LikeMatcher(sqlPattern: fold.apply(pattern)))
            case (.like, _), (.in, _), (.between, _):
                return nil
            case (.beginsWith, _), (.endsWith, _), (.contains, _):
                guard let (other, _) = column(comparison.rhs) else { return nil }
                columns.insert(other)
                right = .column(other)
            case (_, .value(let value)):
                right = .value(fold.apply(value))
            case (_, .key), (_, .object):
                guard let (other, _) = column(comparison.rhs) else { return nil }
                columns.insert(other)
                right = .column(other)
            default:
                return nil
            }
            columns.insert(left)
            return Test(column: left, type: type, op: comparison.op, right: right, fold: fold, dialect: dialect)
        }
    }
}
