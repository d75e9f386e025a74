@_spi(Backend) import FetchKit

/// A piece of SQL under construction: text and bound values in order, numbered only when rendered,
/// so fragments compiled out of order (a `WHERE` before its `JOIN`s) can be assembled freely.
struct SQLFragment: Hashable, ExpressibleByStringLiteral {
    enum Piece: Hashable {
        case text(String)
        case binding(Value)
    }

    private(set) var pieces: [Piece]

    init() { pieces = [] }

    init(_ text: String) { pieces = text.isEmpty ? [] : [.text(text)] }

    init(stringLiteral value: String) { self.init(value) }

    /// A fragment that is just one bound value's placeholder.
    static func binding(_ value: Value) -> SQLFragment {
        var fragment = SQLFragment()
        fragment.pieces = [.binding(value)]
        return fragment
    }

    var isEmpty: Bool { pieces.isEmpty }

    /// How many placeholders the fragment holds.
    var bindingCount: Int {
        pieces.reduce(0) { count, piece in
            if case .binding = piece { return count + 1 }
            return count
        }
    }

    mutating func append(_ other: SQLFragment) { pieces.append(contentsOf: other.pieces) }

    mutating func append(_ text: String) {
        if !text.isEmpty { pieces.append(.text(text)) }
    }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        var result = SQLFragment(lhs)
        result.append(rhs)
        return result
    }

    /// The fragment in parentheses.
    var parenthesized: SQLFragment { "(" + self + ")" }

    /// The statement: placeholders numbered in text order in the dialect's style.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` when the statement binds more values than the dialect allows.
    func statement(in dialect: SQLDialect) throws -> SQLStatement {
        var sql = ""
        var bindings: [Value] = []
        for piece in pieces {
            switch piece {
            case .text(let text):
                sql += text
            case .binding(let value):
                bindings.append(value)
                sql += dialect.placeholder(bindings.count)
            }
        }
        guard bindings.count <= dialect.maxBoundParameters else {
            let limit = dialect.maxBoundParameters
            throw FetchKitError.unsupported(
                "a statement with \(bindings.count) bound values (\(dialect.name) allows \(limit))")
        }
        return SQLStatement(sql: sql, bindings: bindings)
    }
}

extension Sequence where Element == SQLFragment {
    /// The fragments joined by `separator`.
    func joined(separator: String) -> SQLFragment {
        var result = SQLFragment()
        var first = true
        for fragment in self {
            if !first { result.append(separator) }
            result.append(fragment)
            first = false
        }
        return result
    }
}
